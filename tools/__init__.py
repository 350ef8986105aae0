"""dfsched.tools"""
