"""Evaluation: running trials (`trials`), the model-free baselines (`baselines`), pass@k (`metrics`) and the
recovery benchmark (`recovery_bench`)."""
