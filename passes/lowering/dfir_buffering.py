def lower_double_buffering(func, model):
    pass
