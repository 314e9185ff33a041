"""Turns recovery demonstrations (a `messages` conversation + a per-message `trainable` flag) into SFT examples.

The conversation is rendered with the tokenizer's chat template one message at a time, and each piece is tokenized
on its own, the way an episode builds its token ids (prompt, then each reply's sampled ids, then each observation as
the template renders it). So the ids trained on are the ids the policy sees and emits at run time. An assistant
message marked trainable carries loss on its content and the end-of-turn token that closes it (so the model learns
to stop); the role header, the template's trailing newline and every other message are masked.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


class ConversationError(ValueError):
    pass


def _render(tokenizer, messages: list[dict], generation_prompt: bool) -> str:
    return tokenizer.apply_chat_template(messages, add_generation_prompt=generation_prompt, tokenize=False)


def tokenize_conversation(tokenizer, messages: list[dict], trainable: list[bool]) -> dict:
    """Returns {"input_ids", "assistant_masks"}; the mask is 1 exactly on the tokens that carry loss."""
    if len(trainable) != len(messages):
        raise ConversationError(f"{len(messages)} messages but {len(trainable)} trainable flags")
    end_text = tokenizer.eos_token or ""
    ids: list[int] = []
    mask: list[int] = []
    done = ""
    for i, (msg, train) in enumerate(zip(messages, trainable)):
        if train and msg.get("role") != "assistant":
            raise ConversationError(f"message {i} is marked trainable but its role is {msg.get('role')!r}")
        if msg.get("role") == "assistant":
            head = _render(tokenizer, messages[:i], generation_prompt=True)
        else:
            head = None
        full = _render(tokenizer, messages[: i + 1], generation_prompt=False)
        if head is not None:
            if not head.startswith(done) or not full.startswith(head):
                raise ConversationError("the chat template does not render the conversation as a sequence of "
                                        "prefixes; cannot align turns to tokens")
            pieces = [(head[len(done):], 0)]
            body = full[len(head):]
            content = msg["content"]
            if body.startswith(content):
                stop = len(content)
                if end_text and body[stop:].startswith(end_text):
                    stop += len(end_text)
                pieces += [(body[:stop], int(train)), (body[stop:], 0)]
            else:  # a template that rewrites content: train on the whole rendered turn
                pieces.append((body, int(train)))
        else:
            if not full.startswith(done):
                raise ConversationError("the chat template does not render the conversation as a sequence of "
                                        "prefixes; cannot align turns to tokens")
            pieces = [(full[len(done):], 0)]
        for text, bit in pieces:
            if text:
                piece = tokenizer.encode(text, add_special_tokens=False)
                ids += piece
                mask += [bit] * len(piece)
        done = full
    return {"input_ids": ids, "assistant_masks": mask}


def reply_tokens(tokenizer, content: str) -> int:
    """Tokens one trained assistant turn costs, as `tokenize_conversation` counts them: its content and the
    end-of-turn token, the span a policy generates within its reply budget."""
    return len(tokenizer.encode(content + (tokenizer.eos_token or ""), add_special_tokens=False))


def trained_turn_lengths(assistant_masks: list[int]) -> list[int]:
    """The length in tokens of every trained turn of a tokenized conversation: the runs of its loss mask."""
    runs, n = [], 0
    for bit in list(assistant_masks) + [0]:
        if bit:
            n += 1
        elif n:
            runs.append(n)
            n = 0
    return runs


def prepare_dataset(dataset, tokenizer, max_length: int | None = None, train_on: str = "trainable",
                    num_proc: int | None = None):
    """Tokenizes a demonstrations dataset; drops (and logs) examples longer than `max_length`.

    `train_on`: "trainable" (the dataset's flags: every correct turn and every recovery turn, never the injected
    mistake) or "assistant" (every assistant message). Examples are dropped rather than truncated: cutting the end
    would remove the recovery turns, cutting the start would remove the task.
    """
    if train_on not in ("trainable", "assistant"):
        raise ValueError(f"train_on must be 'trainable' or 'assistant', got {train_on!r}")
    missing = [c for c in ("messages",) + (("trainable",) if train_on == "trainable" else ())
               if c not in dataset.column_names]
    if missing:
        raise ConversationError(f"dataset has no column(s) {missing}; columns: {dataset.column_names}")

    def fn(example):
        flags = (example["trainable"] if train_on == "trainable"
                 else [m["role"] == "assistant" for m in example["messages"]])
        return tokenize_conversation(tokenizer, example["messages"], flags)

    keep = [c for c in dataset.column_names if c not in ("input_ids", "assistant_masks")]
    out = dataset.map(fn, remove_columns=keep, num_proc=num_proc, desc="Tokenizing demonstrations")
    before = len(out)
    out = out.filter(lambda e: 1 in e["assistant_masks"] and (max_length is None or len(e["input_ids"]) <= max_length))
    if len(out) < before:
        log.warning("dropped %d of %d examples: longer than max_length=%s or with no trainable token",
                    before - len(out), before, max_length)
    if len(out) == 0:
        raise ConversationError("no example left to train on (all longer than max_length or without trainable turns)")
    return out
