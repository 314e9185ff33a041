"""The agent harness: reply formats, policies, the episode loop and its trajectory record."""
