import numpy
import arraystack as ast


def test_elementwise_chain(check_grads):
    x = numpy.linspace(-0.9, 0.9, 7)
    check_grads(lambda x: ast.sum(ast.tanh(x) * x + ast.exp(-x * x)), [x])
    check_grads(lambda x: ast.sin(x) * ast.cos(x), [x], order=2)
    check_grads(lambda x: ast.sin(x) * ast.cos(x), [x], jit=True)
