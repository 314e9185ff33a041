"""Evaluation: running trials (`trials`), the model-free baselines (`baselines`), pass@k (`metrics`), the
recovery benchmark (`recovery_bench`) and comparisons of training methods with seeds as the unit (`hierarchical`)."""
