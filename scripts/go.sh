#!/usr/bin/env bash
# Builds the Go sample bot (sample_bots/go), installing its toolchain first
# when run as root on Debian: Go, protoc with the Go and Go gRPC plugins, and
# grpc-go and protobuf-go as Debian's Go sources (no module proxy needed).
# Idempotent: make rebuilds only what changed. Called by scripts/test.sh; the
# tournament does not need it.
set -euo pipefail
cd "$(dirname "$0")/.."

gocode=/usr/share/gocode/src
need_pkgs=()
command -v go >/dev/null 2>&1 || need_pkgs+=(golang-go)
command -v make >/dev/null 2>&1 || need_pkgs+=(make)
command -v protoc >/dev/null 2>&1 || need_pkgs+=(protobuf-compiler)
command -v protoc-gen-go >/dev/null 2>&1 || need_pkgs+=(protoc-gen-go)
command -v protoc-gen-go-grpc >/dev/null 2>&1 || need_pkgs+=(protoc-gen-go-grpc)
[ -d "$gocode/google.golang.org/grpc" ] || need_pkgs+=(golang-google-grpc-dev)
[ -d "$gocode/google.golang.org/protobuf" ] || need_pkgs+=(golang-google-protobuf-dev)
# grpc-go's codec goes through github.com/golang/protobuf; its 1.3 line
# predates protobuf-go's messages (marshalling them panics), 1.4+ wraps them.
grep -qs protoimpl "$gocode/github.com/golang/protobuf/proto/proto.go" \
  || need_pkgs+=(golang-github-golang-protobuf-1-5-dev)
. scripts/apt_install.sh
toolchain_for go.sh "the Go sample bot is not built (its tests skip, saying so)" \
  ${need_pkgs[@]+"${need_pkgs[@]}"} || exit 0
make -s -C sample_bots/go
