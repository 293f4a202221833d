"""How the elizaOS plugin calls Provide (client_ts/src/request.ts), so the tools measure the call a user's agent
makes: one budget of 12 facts both sections share (`ProvideRequest.total_limit`, no per-kind limits)."""

PLUGIN_TOTAL = 12
