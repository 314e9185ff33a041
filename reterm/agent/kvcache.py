"""Prefix KV caches kept between turns, so each turn of an episode prefills only what is new.

An agent's prompt at turn k+1 is its prompt at turn k, the reply it sampled, and the new observation. Re-encoding the
whole conversation every turn (what `model.generate` on full prompts does) made prefill most of the generation time
at 48-128 new tokens a turn. `PrefixCache` keeps, per conversation, the key/value states of the tokens it has already
seen, keyed by those token ids; `generate_cached` looks up the longest cached prefix of each prompt, prefills only the
rest, decodes all prompts of a batch together, and stores each row's states for its next turn.

Why our own and not transformers' continuous batching (`generate_batch` / `ContinuousBatchingManager`, which has
prefix sharing over paged blocks): its logprobs are taken after temperature and top-p (ReTerm records the model's
own logprobs, which GRPO's importance ratios and the SFT data rely on), its sampling runs in the manager's thread
with its own seed (lockstep GRPO seeds each round itself, for exact resume), and prefix reuse comes in whole pages.
Measured numbers are in benchmarks/RESULTS.md.

How it stays exact: keys are token ids, never text, so a hit covers exactly the tokens the model would re-encode;
decoding follows `model.generate`'s steps (first token from the prefill's last logits, finished rows fed the pad
token, the same temperature and top-p warpers, one `torch.multinomial` over the whole batch per step), so greedy ids
are the same and logprobs agree to float rounding (the two paths group the arithmetic differently). Tested against
the uncached path on tiny random models and SmolLM2 (tests/test_kvcache.py).

Sharing: a lookup matches any entry's longest common prefix, so conversations that begin alike (the system prompt,
the G forks of one failure state) reuse one another's states, and identical prompts in one batch are prefilled once.

Memory: storing a conversation's new state drops the entries it extends; `release` drops a finished conversation's;
past `max_tokens` cached tokens the least recently used entries are evicted, to be recomputed if asked for again.
Only models whose every layer uses a plain full-attention `DynamicLayer` qualify (`supports_prefix_cache`); others
(sliding windows, hybrid caches) keep the uncached path.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field

import torch
from transformers import (DynamicCache, LogitsProcessorList, TemperatureLogitsWarper, TopKLogitsWarper,
                          TopPLogitsWarper)
from transformers.cache_utils import DynamicLayer

from reterm.agent.sampling import sampled_logprobs


def supports_prefix_cache(model) -> bool:
    """True when `model`'s cache is one plain `DynamicLayer` per layer (full attention, nothing sliding or shared)."""
    try:
        cache = DynamicCache(config=model.config)
    except Exception:  # a config the cache cannot read: do not guess
        return False
    return bool(cache.layers) and all(type(layer) is DynamicLayer for layer in cache.layers)


@dataclass
class _Entry:
    ids: list[int]
    kv: list[tuple[torch.Tensor, torch.Tensor]]  # per layer: keys, values, each [1, heads, len(ids), head_dim]
    used: int = 0


@dataclass
class PrefixCache:
    """Key/value states of conversations, keyed by the token ids they cover; at most `max_tokens` tokens in all."""

    max_tokens: int = 65536
    entries: list[_Entry] = field(default_factory=list)
    stats: dict = field(default_factory=lambda: {"reused_tokens": 0, "prefilled_tokens": 0, "evicted_tokens": 0,
                                                 "peak_tokens": 0})

    def __post_init__(self):
        if self.max_tokens < 1:
            raise ValueError(f"max_tokens must be >= 1, got {self.max_tokens}")
        self._lock = threading.Lock()
        self._clock = itertools.count(1)

    @property
    def tokens(self) -> int:
        return sum(len(e.ids) for e in self.entries)

    def lookup(self, ids: list[int]) -> tuple[_Entry | None, int]:
        """The entry sharing the longest prefix with `ids`, and that prefix's length; at most len(ids) - 1, since
        the last prompt token must be fed to get the next token's logits."""
        best, best_n = None, 0
        with self._lock:
            for e in self.entries:
                n = _common_prefix(e.ids, ids, len(ids) - 1)
                if n > best_n:
                    best, best_n = e, n
            if best is not None:
                best.used = next(self._clock)
        return best, best_n

    def store(self, ids: list[int], kv: list[tuple[torch.Tensor, torch.Tensor]]) -> None:
        """Keeps the states of `ids`, replacing the entries it extends; evicts least recently used ones past the cap."""
        if not ids:
            return
        with self._lock:
            self.entries = [e for e in self.entries if not _is_prefix(e.ids, ids)]
            self.entries.append(_Entry(list(ids), kv, next(self._clock)))
            total = sum(len(e.ids) for e in self.entries)
            self.stats["peak_tokens"] = max(self.stats["peak_tokens"], total)
            self.entries.sort(key=lambda e: e.used)
            while total > self.max_tokens and self.entries:
                gone = self.entries.pop(0)
                total -= len(gone.ids)
                self.stats["evicted_tokens"] += len(gone.ids)

    def release(self, ids: list[int]) -> None:
        """Drops the states of a finished conversation: entries that `ids` extends or that extend `ids` (its last
        stored state may hold a final reply that `ids` lacks, or `ids` an observation the state lacks)."""
        with self._lock:
            self.entries = [e for e in self.entries if not (_is_prefix(e.ids, ids) or _is_prefix(ids, e.ids))]

    def clear(self) -> None:
        with self._lock:
            self.entries = []


def _is_prefix(a: list[int], b: list[int]) -> bool:
    return len(a) <= len(b) and b[: len(a)] == a


def _common_prefix(a: list[int], b: list[int], limit: int) -> int:
    n = min(len(a), len(b), limit)
    if a[:n] == b[:n]:  # the usual case, a conversation's next turn: one C-level comparison
        return n
    lo, hi = 0, n  # a[:lo] == b[:lo] and a[:hi] != b[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid
    return lo


@dataclass
class CachedGeneration:
    token_ids: list[int]
    logprobs: list[float]
    finished: bool  # ended on an end-of-sequence token


def _warpers(temperature: float, top_p: float, top_k: int) -> LogitsProcessorList:
    """The warpers `model.generate(do_sample=True, temperature=t, top_p=p, top_k=k)` applies, in its order."""
    warpers = LogitsProcessorList()
    if temperature != 1.0:
        warpers.append(TemperatureLogitsWarper(temperature))
    if top_k > 0:
        warpers.append(TopKLogitsWarper(top_k))
    if top_p < 1.0:
        warpers.append(TopPLogitsWarper(top_p))
    return warpers


def _prefill(model, ids: list[int], cache: PrefixCache) -> tuple[list[tuple[torch.Tensor, torch.Tensor]], torch.Tensor]:
    """Runs the part of `ids` not in `cache`; returns the states of all of `ids` and the last position's logits."""
    entry, n = cache.lookup(ids)
    past = DynamicCache()
    if entry is not None:
        for layer, (k, v) in enumerate(entry.kv):
            past.update(k[:, :, :n], v[:, :, :n], layer)
    dev = model.device
    new = torch.tensor([ids[n:]], dtype=torch.long, device=dev)
    out = model(input_ids=new, cache=past, position_ids=torch.arange(n, len(ids), device=dev).unsqueeze(0),
                use_cache=True, logits_to_keep=1)
    cache.stats["reused_tokens"] += n
    cache.stats["prefilled_tokens"] += len(ids) - n
    kv = [(layer.keys, layer.values) for layer in past.layers]  # the forward extended `past` in place
    cache.store(ids, kv)  # the next prompt of this batch may share a prefix with this one (the system prompt)
    return kv, out.logits[0, -1].float()


class _BufferLayer(DynamicLayer):
    """A `DynamicLayer` whose keys and values live in a buffer allocated once for the whole decode: each step writes
    one position in place and exposes a view, where `DynamicLayer` concatenates (copies) every layer's whole cache
    per generated token; at batch 8-16 and 300-1,200 cached tokens those copies were a fifth of a decode step."""

    def __init__(self, keys: torch.Tensor, values: torch.Tensor, length: int):
        super().__init__()
        self._keys, self._values, self.length = keys, values, length
        self.device, self.is_initialized = keys.device, True
        self.keys, self.values = keys[:, :, :length], values[:, :, :length]

    def update(self, key_states: torch.Tensor, value_states: torch.Tensor, *args, **kwargs):
        n = key_states.shape[-2]
        if self.length + n > self._keys.shape[2]:  # past the planned length (never in `_decode`): grow once more
            grow = max(n, self._keys.shape[2])
            self._keys, self._values = (torch.cat([t, t.new_zeros(*t.shape[:2], grow, t.shape[3])], dim=2)
                                        for t in (self._keys, self._values))
        self._keys[:, :, self.length:self.length + n] = key_states
        self._values[:, :, self.length:self.length + n] = value_states
        self.length += n
        self.keys, self.values = self._keys[:, :, :self.length], self._values[:, :, :self.length]
        return self.keys, self.values

    def get_seq_length(self) -> int:
        return self.length

    def keep_rows(self, rows: torch.Tensor) -> None:
        """Keeps only the batch rows `rows` (a copy of those rows' buffers: the others' memory is freed)."""
        self._keys, self._values = self._keys.index_select(0, rows), self._values.index_select(0, rows)
        self.keys, self.values = self._keys[:, :, :self.length], self._values[:, :, :self.length]


def _batched_past(rows: list[list[tuple[torch.Tensor, torch.Tensor]]], lengths: list[int],
                  room: int = 0) -> DynamicCache:
    """One left-padded batch cache from per-row states of different lengths (as `generate` lays out a batch), with
    `room` more positions preallocated for the tokens the decode will feed."""
    width = max(lengths)
    past = DynamicCache()
    layers = []
    for layer in range(len(rows[0])):
        k0 = rows[0][layer][0]
        keys = k0.new_zeros((len(rows), k0.shape[1], width + room, k0.shape[3]))
        values = keys.clone()
        for i, row in enumerate(rows):
            keys[i, :, width - lengths[i]:width] = row[layer][0][0]
            values[i, :, width - lengths[i]:width] = row[layer][1][0]
        layers.append(_BufferLayer(keys, values, width))
    past.layers = layers
    return past


def generate_cached(model, prompts: list[list[int]], cache: PrefixCache, max_new_tokens: int, temperature: float,
                    top_p: float, top_k: int, eos_ids: set[int], pad_id: int,
                    stop: threading.Event | None = None, compact: bool = True) -> list[CachedGeneration]:
    """Generates a reply for every prompt, reusing and updating `cache`; `temperature` 0 is greedy. When `stop` is
    set the batch ends after the current token (the run is being stopped; its replies are cut short). With
    `compact`, rows that finished leave the decode batch once they are a quarter of it (see `_decode`)."""
    unique: dict[tuple, int] = {}
    for p in prompts:  # identical prompts (the G forks of one failure state) are prefilled once
        unique.setdefault(tuple(p), len(unique))
    prefilled = [_prefill(model, list(p), cache) for p in unique]
    rows = [prefilled[unique[tuple(p)]] for p in prompts]
    lengths = [len(p) for p in prompts]
    past = _batched_past([kv for kv, _ in rows], lengths, room=max(0, max_new_tokens - 1))
    width = max(lengths)
    attention = torch.zeros((len(prompts), width), dtype=torch.long)
    for i, n in enumerate(lengths):
        attention[i, width - n:] = 1
    attention = attention.to(model.device)
    logits = torch.stack([last for _, last in rows])

    def store(i: int, b: int, ids: list[int]) -> None:  # prompt i's states, at row b of the decode batch
        p = prompts[i]
        keep = len(p) + len(ids) - 1  # the last sampled token was never fed to the model
        start = width - len(p)
        cache.store(list(p) + ids[:-1], [(layer.keys[b:b + 1, :, start:start + keep].clone(),
                                          layer.values[b:b + 1, :, start:start + keep].clone())
                                         for layer in past.layers])

    tokens, logprobs = _decode(model, past, attention, logits, lengths, max_new_tokens, temperature, top_p, top_k,
                               eos_ids, pad_id, stop, store, compact)
    return [CachedGeneration(tokens[i], logprobs[i], bool(tokens[i]) and tokens[i][-1] in eos_ids)
            for i in range(len(prompts))]


def _decode(model, past: DynamicCache, attention: torch.Tensor, logits: torch.Tensor, lengths: list[int],
            max_new_tokens: int, temperature: float, top_p: float, top_k: int, eos_ids: set[int], pad_id: int,
            stop: threading.Event | None, store, compact: bool = True):
    """`model.generate`'s decoding loop over a left-padded batch cache; returns per-row token ids and logprobs, and
    hands each row's states to `store(row, position in the batch, ids)` once it is done.

    Compaction: `model.generate` feeds finished rows pad tokens until the longest reply ends; here, once the finished
    rows are a quarter of the batch, they are stored and dropped from the cache, the mask and the positions (each
    layer's buffers copied once), so later steps run on the live rows only. Sampling still draws over a tensor of
    the original batch's rows (finished rows keep their last logits), so `torch.multinomial` consumes the random
    stream exactly as the uncompacted loop (and `model.generate`) does, and under a seed the live rows draw the same
    tokens. Row results do not depend on the other rows of a batch, up to float rounding."""
    batch = len(lengths)
    warpers = None if temperature == 0 else _warpers(temperature, top_p, top_k)
    dev = logits.device  # the model's: every tensor of the loop lives there (a GPU's, or the CPU)
    eos = torch.tensor(sorted(eos_ids), dtype=torch.long, device=dev)
    rows = torch.arange(batch, device=dev)  # original row of each decode-batch position
    live = torch.ones(batch, dtype=torch.bool, device=dev)  # per position
    positions = torch.tensor(lengths, dtype=torch.long, device=dev).unsqueeze(1)
    tokens: list[list[int]] = [[] for _ in range(batch)]
    logprobs: list[list[float]] = [[] for _ in range(batch)]
    full = logits  # [batch, vocab], by original row: what sampling draws over
    for step in range(max_new_tokens):
        if len(rows) < batch:  # compacted: the live rows' new logits, the finished rows' last ones
            full[rows] = logits
        else:
            full = logits
        if warpers is None:
            chosen = full.argmax(dim=-1)
        else:
            chosen = torch.multinomial(torch.softmax(warpers(None, full), dim=-1), num_samples=1).squeeze(1)
        lp = sampled_logprobs(full.unsqueeze(1), chosen.unsqueeze(1), temperature).squeeze(1)
        chosen, lp = chosen[rows], lp[rows]  # per position
        # the step's tokens and logprobs read back in one transfer each, not one per row (each a sync on a GPU)
        row_of, chosen_l, lp_l = rows.tolist(), chosen.tolist(), lp.tolist()
        for b in live.nonzero().flatten().tolist():
            tokens[row_of[b]].append(chosen_l[b])
            logprobs[row_of[b]].append(lp_l[b])
        live &= ~torch.isin(chosen, eos)
        if not live.any() or step == max_new_tokens - 1 or (stop is not None and stop.is_set()):
            break
        if compact and (~live).sum() * 4 >= len(rows):
            keep = live.nonzero().flatten()
            for b in (~live).nonzero().flatten().tolist():
                store(int(rows[b]), b, tokens[int(rows[b])])
            for layer in past.layers:
                layer.keep_rows(keep)
            rows, live, chosen = rows[keep], live[keep], chosen[keep]
            attention, positions, logits = attention[keep], positions[keep], logits[keep]
        fed = torch.where(live, chosen, torch.full_like(chosen, pad_id)).unsqueeze(1)
        attention = torch.cat([attention, attention.new_ones((len(rows), 1))], dim=1)
        out = model(input_ids=fed, attention_mask=attention, position_ids=positions + step, cache=past, use_cache=True)
        logits = out.logits[:, -1].float()
    for b in range(len(rows)):
        store(int(rows[b]), b, tokens[int(rows[b])])
    return tokens, logprobs
