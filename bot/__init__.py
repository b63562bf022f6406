"""The RLVR lesson bot: one interactive lesson, run live in a Discord or Slack channel."""
