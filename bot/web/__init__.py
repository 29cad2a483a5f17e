"""The read-only web companion (issue 29): a live page per game at a secret link (`/gm web`).

`app` holds the routes and the security around them, `page` what a game's page shows (exactly what a
spectator on Discord reads), `text` the catalog's chat markup turned into HTML, `live` the carrier
of the games' changes to the open pages (Server-Sent Events), `limits` the per-address rate limit,
`server` the thread that serves it all inside the bot process.
"""
