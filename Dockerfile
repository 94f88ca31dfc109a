# One image for every worker. Settings come from the environment (docker-compose.yml).
FROM python:3.11-slim
# LibreOffice previews and CJK fonts are optional extras of the PPT flow; ripgrep serves the plan flow.
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends ripgrep fonts-noto-cjk libcairo2 curl \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /srv
# Dependencies first: a code change does not reinstall them.
COPY pyproject.toml README.md ./
COPY app app
COPY core core
COPY graphs graphs
COPY schemas schemas
# Editable: the server serves static/ beside the app package, from /srv.
RUN pip install --no-cache-dir -e ".[scale]"
COPY static static
ENV HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
EXPOSE 8080
HEALTHCHECK --interval=5s --timeout=3s --retries=10 CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
CMD ["ng", "serve"]
