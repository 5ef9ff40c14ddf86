"""``opyard.testing``: helpers for testing code written against opyard (torch's ``torch.testing``).

``opyard.testing._internal.logging_tensor`` logs the operators a computation reaches
(``LoggingTensor``, ``LoggingTensorMode``, ``capture_logs``), as torch's test helpers of the same
name do.
"""
