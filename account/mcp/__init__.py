"""The MCP server at /mcp/: agents reach the user's governed memory (see views.py)."""
