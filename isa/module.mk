# isa/module.mk: libisa, the ISA tables and the IR.
isa_SRCS := $(wildcard isa/*.c isa/sem/*.c)
$(eval $(call lib_template,isa))
# The multi-function unit's recorded tables are assembled into mufu.o (.incbin).
$(BUILD)/obj/isa/sem/mufu.o $(BUILD)/tobj/isa/sem/mufu.o: $(wildcard isa/sem/mufu/*.zst)
