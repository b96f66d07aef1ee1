# isa/module.mk: libisa, the ISA tables and the IR.
isa_SRCS := $(wildcard isa/*.c isa/sem/*.c)
$(eval $(call lib_template,isa))
