"""Drawing the visible board: pure functions of what the player sees, and the pygame window.

* :mod:`~mswp_gym.render.text`: ``render_ansi``, the board as text;
* :mod:`~mswp_gym.render.rgb`: ``render_rgb``, the board as an RGB array (NumPy only);
* :mod:`~mswp_gym.render.drawing`: pygame surfaces of those frames (pygame imported lazily);
* :mod:`~mswp_gym.render.viewer`: ``HumanViewer``, the window behind ``render_mode="human"``.
"""
