# dealerassist: the API and tablet pages (`dealerassist serve`, gunicorn) as a non-root user.
# Build: docker build -t dealerassist .   Run: docker run -p 8000:8000 dealerassist
# Redis and the audit store are embedded under DEALERASSIST_DATA_DIR unless REDIS_URL /
# DATABASE_URL point elsewhere; mount a volume there to keep the audit log.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DEALERASSIST_DATA_DIR=/var/lib/dealerassist \
    DEALERASSIST_PROFILES_DIR=/app/config/house_rules

WORKDIR /app

# The locked runtime dependencies (requirements/runtime.txt: the versions `make test` ran;
# all ship manylinux wheels, no compiler needed), then the package itself without resolving.
COPY requirements/runtime.txt ./requirements/runtime.txt
RUN pip install -r requirements/runtime.txt
COPY pyproject.toml README.md ./
COPY dealerassist ./dealerassist
RUN pip install --no-deps . && rm -rf build dealerassist.egg-info

# The house-rule profiles live outside the package; DEALERASSIST_PROFILES_DIR points here.
COPY config ./config

RUN useradd --system --user-group --home-dir /var/lib/dealerassist \
        --shell /usr/sbin/nologin dealerassist \
    && mkdir -p /var/lib/dealerassist \
    && chown dealerassist:dealerassist /var/lib/dealerassist
VOLUME ["/var/lib/dealerassist"]
USER dealerassist

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status == 200 else 1)"]
CMD ["dealerassist", "serve", "--host", "0.0.0.0", "--port", "8000"]
