"""dfsched.arch"""
