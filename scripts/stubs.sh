#!/usr/bin/env bash
# Installs, when run as root on Debian, the toolchains whose stub-generation
# commands docs/protocol.md gives and tests/wire/test_stub_commands.py runs
# beyond those of setup.sh, cpp.sh and go.sh: Ruby's grpc tools and
# grpc-java with its libraries. All are Debian packages: nothing comes from
# Maven Central, NuGet or crates.io, none of which this machine reaches.
# Idempotent. Called by scripts/test.sh; without them those tests skip,
# saying so.
set -euo pipefail
cd "$(dirname "$0")/.."

need_pkgs=()
command -v protoc >/dev/null 2>&1 || need_pkgs+=(protobuf-compiler)
command -v grpc_tools_ruby_protoc >/dev/null 2>&1 || need_pkgs+=(ruby ruby-grpc ruby-grpc-tools)
command -v grpc_java_plugin >/dev/null 2>&1 || need_pkgs+=(protobuf-compiler-grpc-java-plugin)
[ -f /usr/share/java/grpc-stub.jar ] || need_pkgs+=(libgrpc-java libprotobuf-java)
command -v javac >/dev/null 2>&1 || need_pkgs+=(default-jdk-headless)
. scripts/apt_install.sh
apt_install stubs.sh "the tests of their stub commands skip, saying so" \
  ${need_pkgs[@]+"${need_pkgs[@]}"} || [ $? = 1 ]
