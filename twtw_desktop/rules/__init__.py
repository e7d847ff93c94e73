"""The rules model: plain Python + pydantic, no Qt."""
