"""Statistics: averages and variances, order statistics, histograms, covariance and correlation."""
