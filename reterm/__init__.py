"""ReTerm: train terminal agents to recover from their own failures."""

import os as _os

# transformers (5.x) replaces layers of a model on a GPU with kernels fetched from the Hugging Face Hub by default
# (`USE_HUB_KERNELS`): code downloaded at run time, and where the Hub cannot be reached a failure at the first
# `model.train()` ("could not verify publisher trust status"; seen on a GPU machine, benchmarks/RESULTS.md, *The GPU
# paths*). ReTerm never fetches code or weights at run time: hub kernels stay off unless USE_HUB_KERNELS=YES is set
# (with it off, transformers ignores `from_pretrained(..., use_kernels=True)` too, with a warning).
_os.environ.setdefault("USE_HUB_KERNELS", "NO")

__version__ = "0.1.0"
