"""A strict reader for the small YAML subset this app's settings use: `key: value` lines, mappings nested by
two spaces per level, `#` comments. Every error names its line."""


class ConfigError(Exception):
    pass


def scalar(text):
    if text in ("true", "false"):
        return text == "true"
    if text.lstrip("-").isdigit():
        return int(text)
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    return text


def load(path):
    root, first = {}, {}
    stack = [(0, root)]  # (indentation of its keys, mapping)
    opened = None  # a `key:` whose indented block must follow
    with open(path) as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines, 1):
        body = line.strip()
        if not body or body.startswith("#"):
            continue
        lead = line[:len(line) - len(line.lstrip(" \t"))]
        if "\t" in lead:
            raise ConfigError(f"line {n}: tab character in indentation")
        indent = len(lead)
        if indent % 2:
            raise ConfigError(f"line {n}: indentation of {indent} spaces is not a multiple of 2")
        if opened and indent != stack[-1][0]:
            raise ConfigError(f"line {n}: expected the keys of '{opened}' indented by {stack[-1][0]} spaces")
        if indent > stack[-1][0]:
            raise ConfigError(f"line {n}: unexpected indentation")
        while indent < stack[-1][0]:
            stack.pop()
        opened = None
        key, colon, value = body.partition(":")
        if not colon or not key or " " in key:
            raise ConfigError(f"line {n}: expected 'key: value', found {body!r}")
        if value and not value.startswith(" "):
            raise ConfigError(f"line {n}: missing space after ':' in {body!r}")
        mapping = stack[-1][1]
        if key in mapping:
            raise ConfigError(f"line {n}: duplicate key '{key}' (first set on line {first[id(mapping), key]})")
        first[id(mapping), key] = n
        if value.strip():
            mapping[key] = scalar(value.strip())
        else:
            mapping[key] = {}
            stack.append((indent + 2, mapping[key]))
            opened = key
    if opened:
        raise ConfigError(f"line {len(lines)}: '{opened}' has no keys")
    return root
