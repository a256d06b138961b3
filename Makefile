.PHONY: setup tournament test
setup:
	bash scripts/setup.sh
tournament:
	bash scripts/tournament.sh
test:
	bash scripts/test.sh
