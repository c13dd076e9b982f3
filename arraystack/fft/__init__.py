"""arraystack.fft: mirrors numpy.fft (NumPy 2 semantics, Array API signatures included).

Every transform lowers to the `fft` primitive (jit/fft.py) through fft/_transform.py, so the
results are numpy.fft's, eagerly and under jit, and grad/vmap go through the primitive's rules.
fftfreq, rfftfreq, fftshift and ifftshift are compositions.
"""

from arraystack.fft._frequencies import fftfreq, fftshift, ifftshift, rfftfreq
from arraystack.fft._n_dim import fft2, fftn, ifft2, ifftn, irfft2, irfftn, rfft2, rfftn
from arraystack.fft._one_dim import fft, hfft, ifft, ihfft, irfft, rfft

__all__ = [
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]
