"""The cupy backend's CUDA side: fusion regions lowered to CUDA C++ kernels (cuda_codegen.py), compiled by
NVRTC (nvrtc.py, kernel_cache.py), and run on the CPU through an emulation of CUDA's execution model
(harness/cuda_on_cpu.h, cpu_harness.py) where there is no GPU.
"""
