"""Writes to memories, split by subdomain; import the module you need explicitly.

The pure, Django-free rules they apply (write policy, redaction, injection, offline
extraction, statements, slots, dates, scoring) are in `memories/logic/`.
"""
