"""The memories app's pure logic: text in, decisions out, no Django (dates, scoring, the
write policy, secret redaction rules, injection and standing-order detection, offline
extraction rules, statement reading and answer slots). Services call it and store results."""
