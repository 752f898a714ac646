# hostmcp: the two quick-start targets are `make triage` and `make test`.
# Both install what the machine lacks first (scripts/deps.sh, Debian only).

GO      ?= go
BIN     ?= bin/hostmcp
# A release build may name its semantic version (VERSION=v1.2.3); otherwise
# the binary reports internal/buildinfo's Release and the commit below.
VERSION ?=
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo -modified)
LDFLAGS := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)
export CGO_ENABLED = 0

PREFIX  ?= /usr/local
DESTDIR ?=
# Every file in the .deb and the image carries the commit's time, so two
# builds of one commit are the same bytes.
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
export SOURCE_DATE_EPOCH

.PHONY: deps build triage test lint docs bench fuzz ci generate install deb image

deps:
	scripts/deps.sh

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/hostmcp

# The binary, the man page, the example configuration and the shell
# completions under $(DESTDIR)$(PREFIX). The service is the .deb's (make deb).
install: build
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/hostmcp
	install -D -m 0644 docs/hostmcp.1 $(DESTDIR)$(PREFIX)/share/man/man1/hostmcp.1
	install -D -m 0644 hostmcp.example.toml $(DESTDIR)$(PREFIX)/share/doc/hostmcp/hostmcp.example.toml
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	$(BIN) completion bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/hostmcp
	$(BIN) completion zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_hostmcp

# dist/hostmcp_VERSION_ARCH.deb: the binary, hostmcp.service, the man page,
# completions and /etc/hostmcp/hostmcp.toml as a conffile (packaging/).
deb: build
	$(GO) run ./packaging deb -binary $(BIN) -out dist

# dist/hostmcp_VERSION_ARCH.oci.tar: an OCI image of the static binary,
# built without a container daemon (podman load -i, docker load -i).
image: build
	$(GO) run ./packaging image -binary $(BIN) -out dist

# The main job: a short health report of this machine.
triage: deps build
	$(BIN) triage

# Every test, live ones included (as root they run for real; with
# HOSTMCP_REQUIRE_PRIVILEGED=1 a missing capability fails instead of skipping).
test: deps
	CGO_ENABLED=1 $(GO) test -race -count=1 -timeout 25m ./...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	staticcheck ./...
	$(GO) build ./...
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy"; exit 1; }

# Regenerate docs/tools.md, the tool schema snapshots and the served input
# schemas (internal/catalog/input_schemas.txt) from the registry.
docs:
	$(GO) test ./internal/catalog -run 'TestToolsDoc|TestToolSnapshots|TestGeneratedInputSchemas' -update

# Rebuild the committed eBPF objects and the syscall table (needs clang,
# llvm and libbpf-dev, which this installs; building never does).
generate:
	scripts/deps.sh generate
	$(GO) generate ./internal/bpfprog
	scripts/gen-syscalls.sh

bench: build
	scripts/bench.sh

fuzz:
	scripts/fuzz.sh 10s

ci: test lint fuzz
