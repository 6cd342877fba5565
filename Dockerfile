# The COMMA play server (browser play and collection studies) as a container.
#
#   docker build -t comma-play .
#   docker run -d --name comma-study -p 127.0.0.1:8765:8765 -v "$PWD/studies:/data" \
#       -e COMMA_PLAY_ADMIN_TOKEN="$(openssl rand -hex 24)" comma-play \
#       collect /data/pilot puzzles=[wire,atm,who] games_per_puzzle=10 host=0.0.0.0 port=8765 \
#       allowed_hosts=[play.example.org] trusted_proxies=[172.17.0.1]
#
# Publish the port on 127.0.0.1 only and put a TLS reverse proxy in front (deploy/Caddyfile,
# deploy/nginx.conf). Every argument after the image name goes to `python -m comma_env.play`
# and replaces the CMD below, so keep host=0.0.0.0 (the container's loopback is its own) and
# name the proxy's address (as the container sees it) in trusted_proxies.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY comma_env ./comma_env
COPY conf ./conf
COPY manuals ./manuals
RUN pip install ".[web]" && useradd --create-home --uid 10001 comma && mkdir /data && chown comma /data
USER comma
VOLUME /data
EXPOSE 8765
# any HTTP answer means alive (a Host outside allowed_hosts gets 421, which is fine here)
HEALTHCHECK --interval=30s --timeout=5s CMD python -c "import http.client as h; c = h.HTTPConnection('127.0.0.1', 8765, timeout=5); c.request('GET', '/api/config'); c.getresponse()" || exit 1
ENTRYPOINT ["python", "-m", "comma_env.play"]
CMD ["collect", "/data/study", "puzzles=[wire,atm,who]", "games_per_puzzle=10", "host=0.0.0.0", "port=8765"]
