# wuzi serve in a small image: build the one binary, then copy it onto a slim Debian.
# Build: docker build -t wuzi .     Run: docker run --rm -p 127.0.0.1:8080:8080 --stop-timeout 30 wuzi
# See docs/deploy.md for the limits and for running behind a reverse proxy.

# Builder and runtime on the same Debian release, so the binary finds the glibc it was linked to.
FROM rust:1-slim-trixie AS build
WORKDIR /src
COPY . .
# Only the wuzi binary; no debug info, stripped: a smaller image.
ENV CARGO_PROFILE_RELEASE_DEBUG=false \
    CARGO_PROFILE_RELEASE_STRIP=true
RUN cargo build --release --locked -p wuzi --bin wuzi \
    && cp target/release/wuzi /usr/local/bin/wuzi

FROM debian:trixie-slim
COPY --from=build /usr/local/bin/wuzi /usr/local/bin/wuzi
# Nothing to write: games live in memory. Run unprivileged.
USER nobody
EXPOSE 8080
# Exec form: wuzi is PID 1 and gets the SIGTERM of `docker stop` itself, finishes the searches
# in flight (at most --max-time-ms) and exits 0; --stop-timeout must be longer than the stop's
# worst case, 2 x --max-time-ms + 5 s (docs/deploy.md).
ENTRYPOINT ["/usr/local/bin/wuzi", "serve", "--addr", "0.0.0.0:8080"]
CMD ["--max-time-ms", "10000"]
