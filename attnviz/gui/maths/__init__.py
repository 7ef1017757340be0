"""The maths views: q and k as arrows, √d_k, softmax, kernels, the lines view."""
