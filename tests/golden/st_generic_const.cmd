u32[4]:out
