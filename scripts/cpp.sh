#!/usr/bin/env bash
# Builds the C++ sample bot (sample_bots/cpp), installing its toolchain first
# when run as root on Debian: g++, make, pkg-config, protoc with the gRPC C++
# plugin, and the gRPC C++ and protobuf libraries. Idempotent: make rebuilds
# only what changed. Called by scripts/test.sh; the tournament does not need it.
set -euo pipefail
cd "$(dirname "$0")/.."

need_pkgs=()
command -v g++ >/dev/null 2>&1 || need_pkgs+=(g++)
command -v make >/dev/null 2>&1 || need_pkgs+=(make)
command -v pkg-config >/dev/null 2>&1 || need_pkgs+=(pkg-config)
command -v grpc_cpp_plugin >/dev/null 2>&1 || need_pkgs+=(protobuf-compiler-grpc)
command -v protoc >/dev/null 2>&1 || need_pkgs+=(protobuf-compiler)
pkg-config --exists grpc++ protobuf 2>/dev/null || need_pkgs+=(libgrpc++-dev libprotobuf-dev)
. scripts/apt_install.sh
toolchain_for cpp.sh "the C++ sample bot is not built (its tests skip, saying so)" \
  ${need_pkgs[@]+"${need_pkgs[@]}"} || exit 0
make -s -C sample_bots/cpp
