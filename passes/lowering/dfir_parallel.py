def lower_parallel_ops(func):
    pass
