"""Training support shared by the recipes (`recipes/sft.py`, `recipes/reterm_grpo.py`)."""
