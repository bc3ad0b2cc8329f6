# OpenBench builds engines with `make -j EXE=name`.
EXE ?= engine

.PHONY: all clean
all:
	cargo build --release -p engine --bin engine
	cp target/release/engine$(if $(filter %.exe,$(EXE)),.exe,) $(EXE)

clean:
	cargo clean
