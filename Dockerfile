# The lesson bot in a container. The command is the platform: `discord` (the default),
# `slack` (Socket Mode) or `slack --http --port 3000`. Secrets come from the environment
# (`docker run --env-file .env`, or compose.yaml); none is copied into the image.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# The dependencies first, pinned by the lock file (`make lock`), so a change to the code
# reuses this layer and every build gets the libraries the tests ran on.
COPY requirements.lock ./
RUN pip install --requirement requirements.lock

# Then the bot itself, with nothing left to resolve; the install puts the migrations from
# alembic/ under /usr/local/share/lessonbot/alembic, where `lessonbot db upgrade` finds them.
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY lessons ./lessons
COPY storage ./storage
COPY alembic ./alembic
RUN pip install --no-deps . \
    && useradd --create-home --uid 10001 lessonbot \
    && mkdir /data \
    && chown lessonbot /data

# The source stays root's and read-only; the bot writes only its database and heartbeat.
USER lessonbot
ENV DATABASE_URL=sqlite+aiosqlite:////data/lessonbot.db \
    HEALTH_FILE=/tmp/lessonbot.alive \
    HEALTH_INTERVAL=10
VOLUME ["/data"]
# HTTP mode (`slack --http --port 3000`) listens here; Discord and Socket Mode need no port.
EXPOSE 3000

# Healthy while the bot is connected to its platform and its database answers.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["lessonbot", "health"]

# Migrate first (under a lock, so several containers may start at once), then run the command;
# the migration's message goes to stderr, so `export` writes only CSV to stdout.
ENTRYPOINT ["/bin/sh", "-c", "lessonbot db upgrade >&2 && exec lessonbot \"$@\"", "lessonbot"]
CMD ["discord"]
