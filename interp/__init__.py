"""dfsched.interp"""
