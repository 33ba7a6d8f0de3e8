"""Writes to memories, split by subdomain; import the module you need explicitly.

Pure, Django-free modules: `write_policy`, `secrets`, `injection`, `rules`,
`extraction_schema`, `tool_paths`. The rest write to the database.
"""
