/* render.c -- not written yet */ typedef int ttt_render_placeholder;
