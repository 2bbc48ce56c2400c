"""Running Cardroom as a service: metrics, health checks, structured logs, error reports,
backups and the production checks of ``./run doctor``.

``bot.ops.metrics`` (the metric registry) and ``bot.ops.logs`` import nothing of Discord, so
storage and sessions may use them; ``bot.ops.observe`` reads the running bot for them.
"""
