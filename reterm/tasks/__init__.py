"""Tasks: one in-memory shape for every on-disk format (Harbor, Terminal-Bench v1)."""

from reterm.tasks.loader import find_task_dirs, load_task, load_tasks, validate_paths
from reterm.tasks.model import Task, TaskError, TaskLimits

__all__ = ["Task", "TaskError", "TaskLimits", "find_task_dirs", "load_task", "load_tasks", "validate_paths"]
