.PHONY: setup tournament test check
setup:
	bash scripts/setup.sh
tournament:
	bash scripts/tournament.sh
test:
	bash scripts/test.sh
# The fast checks while developing (docs/testing.md): lint, types, the unit tier.
check:
	bash scripts/check.sh
