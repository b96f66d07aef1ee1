s32[12]:out
