"""What graphs stand on: settings, the model interface and factory, tools, retrieval, messages.

Imports run one way: app -> graphs -> core -> schemas.
"""
