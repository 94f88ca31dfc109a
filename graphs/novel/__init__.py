from dataclasses import replace

from graphs.novel.chat import FLOW as _CHAT

# A chat whose messages say nothing yet ("/help") is named by its project beside the flow ("雾港 · 小说助手").
# (Set here while chat.py is being changed elsewhere; it belongs in the chat's own FlowDefinition.)
FLOW = replace(_CHAT, subject_option="projectId")
