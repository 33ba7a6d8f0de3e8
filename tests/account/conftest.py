"""The account pages show memories: the memories tests' way of writing them."""

from tests.memories.conftest import remember  # noqa: F401  (a fixture, used by name)
