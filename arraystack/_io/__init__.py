"""Input and output: .npy/.npz and text files, raw binary data, strings and base-n representations."""
