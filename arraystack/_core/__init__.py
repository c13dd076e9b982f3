"""The array type and what every chapter builds on: ndarray, its methods and operators, dtypes, printing,
configuration, devices, interoperability, and the loader and sources of the C accelerator."""
