"""Written by ``make gen`` (do not edit; ``tests/package/test_generated_indexes.py`` checks it):
the built-in operators' declared schemas, their ``out=`` rows, per operator row where its kernels
live, and the packets torch has as functions and methods (Note [Kernel modules on first use],
``_aten/__init__.py``; ``_aten/_table.py`` derives it). The large tables are strings, one entry
per line, decoded when first read (Note [Packed operator index], ``_table.py``)."""

# The SCHEMAS of the declaring modules, in module order.
SCHEMAS = tuple("""\
celu(Tensor self, Scalar alpha=1.0) -> Tensor
celu_(Tensor(a!) self, Scalar alpha=1.0) -> Tensor(a!)
selu(Tensor self) -> Tensor
selu_(Tensor(a!) self) -> Tensor(a!)
elu_(Tensor(a!) self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor(a!)
glu(Tensor self, int dim=-1) -> Tensor
hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor
softshrink(Tensor self, Scalar lambd=0.5) -> Tensor
hardsigmoid(Tensor self) -> Tensor
hardsigmoid_(Tensor(a!) self) -> Tensor(a!)
hardswish(Tensor self) -> Tensor
hardswish_(Tensor(a!) self) -> Tensor(a!)
log_sigmoid(Tensor self) -> Tensor
log_sigmoid_forward(Tensor self) -> (Tensor output, Tensor buffer)
mish(Tensor self) -> Tensor
mish_(Tensor(a!) self) -> Tensor(a!)
prelu(Tensor self, Tensor weight) -> Tensor
_prelu_kernel(Tensor self, Tensor weight) -> Tensor
rrelu(Tensor self, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, Generator? generator=None) -> Tensor
rrelu_(Tensor(a!) self, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, Generator? generator=None) -> Tensor(a!)
rrelu_with_noise(Tensor self, Tensor(b!) noise, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, Generator? generator=None) -> Tensor
rrelu_with_noise_(Tensor(a!) self, Tensor(b!) noise, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, Generator? generator=None) -> Tensor(a!)
threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor
threshold_(Tensor(a!) self, Scalar threshold, Scalar value) -> Tensor(a!)
affine_grid_generator(Tensor theta, SymInt[] size, bool align_corners) -> Tensor
arccos(Tensor self) -> Tensor
arccos_(Tensor(a!) self) -> Tensor(a!)
arccosh(Tensor self) -> Tensor
arccosh_(Tensor(a!) self) -> Tensor(a!)
arcsin(Tensor self) -> Tensor
arcsin_(Tensor(a!) self) -> Tensor(a!)
arcsinh(Tensor self) -> Tensor
arcsinh_(Tensor(a!) self) -> Tensor(a!)
arctan(Tensor self) -> Tensor
arctan_(Tensor(a!) self) -> Tensor(a!)
arctanh(Tensor self) -> Tensor
arctanh_(Tensor(a!) self) -> Tensor(a!)
arctan2(Tensor self, Tensor other) -> Tensor
arctan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)
fix(Tensor self) -> Tensor
fix_(Tensor(a!) self) -> Tensor(a!)
greater.Tensor(Tensor self, Tensor other) -> Tensor
greater.Scalar(Tensor self, Scalar other) -> Tensor
greater_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
greater_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
greater_equal.Tensor(Tensor self, Tensor other) -> Tensor
greater_equal.Scalar(Tensor self, Scalar other) -> Tensor
greater_equal_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
greater_equal_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
less.Tensor(Tensor self, Tensor other) -> Tensor
less.Scalar(Tensor self, Scalar other) -> Tensor
less_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
less_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
less_equal.Tensor(Tensor self, Tensor other) -> Tensor
less_equal.Scalar(Tensor self, Scalar other) -> Tensor
less_equal_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
less_equal_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
not_equal.Tensor(Tensor self, Tensor other) -> Tensor
not_equal.Scalar(Tensor self, Scalar other) -> Tensor
not_equal_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
not_equal_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
clip(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor
clip_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)
clip.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
clip_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)
moveaxis.int(Tensor(a) self, int source, int destination) -> Tensor(a)
moveaxis.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)
swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)
swapaxes_(Tensor(a!) self, int axis0, int axis1) -> Tensor(a!)
swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
swapdims_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)
row_stack(Tensor[] tensors) -> Tensor
ger(Tensor self, Tensor vec2) -> Tensor
_safe_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor
_log_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor
_scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value, float dropout_p=0.0, bool is_causal=False, *, Tensor? attn_mask=None, float? scale=None) -> (Tensor output, Tensor logsumexp)
_scaled_dot_product_flash_attention_for_cpu_backward(Tensor grad_out, Tensor query, Tensor key, Tensor value, Tensor out, Tensor logsumexp, float dropout_p, bool is_causal, *, Tensor? attn_mask=None, float? scale=None) -> (Tensor grad_query, Tensor grad_key, Tensor grad_value)
_scaled_dot_product_attention_math(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False, Tensor? dropout_mask=None, *, float? scale=None, bool enable_gqa=False) -> (Tensor, Tensor)
complex(Tensor real, Tensor imag) -> Tensor
polar(Tensor abs, Tensor angle) -> Tensor
isreal(Tensor self) -> Tensor
adjoint(Tensor(a) self) -> Tensor(a)
view_as_real(Tensor(a) self) -> Tensor(a)
view_as_complex(Tensor(a) self) -> Tensor(a)
real(Tensor(a) self) -> Tensor(a)
imag(Tensor(a) self) -> Tensor(a)
_conj(Tensor(a) self) -> Tensor(a)
conj(Tensor(a) self) -> Tensor(a)
_conj_physical(Tensor self) -> Tensor
conj_physical(Tensor self) -> Tensor
conj_physical_(Tensor(a!) self) -> Tensor(a!)
resolve_conj(Tensor(a) self) -> Tensor(a)
resolve_neg(Tensor(a) self) -> Tensor(a)
angle(Tensor self) -> Tensor
convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor
convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, bool[3] output_mask) -> (Tensor, Tensor, Tensor)
_convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, bool benchmark, bool deterministic, bool cudnn_enabled, bool allow_tf32) -> Tensor
_convolution.deprecated(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, int[] output_padding, SymInt groups, bool benchmark, bool deterministic, bool cudnn_enabled) -> Tensor
_convolution_mode(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, str padding, SymInt[] dilation, SymInt groups) -> Tensor
conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=1, SymInt[1] padding=0, SymInt[1] dilation=1, SymInt groups=1) -> Tensor
conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] padding=0, SymInt[2] dilation=1, SymInt groups=1) -> Tensor
conv3d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=1, SymInt[3] padding=0, SymInt[3] dilation=1, SymInt groups=1) -> Tensor
conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=1, str padding="valid", SymInt[1] dilation=1, SymInt groups=1) -> Tensor
conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, str padding="valid", SymInt[2] dilation=1, SymInt groups=1) -> Tensor
conv3d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=1, str padding="valid", SymInt[3] dilation=1, SymInt groups=1) -> Tensor
conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=1, SymInt[1] padding=0, SymInt[1] output_padding=0, SymInt groups=1, SymInt[1] dilation=1) -> Tensor
conv_transpose2d.input(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] padding=0, SymInt[2] output_padding=0, SymInt groups=1, SymInt[2] dilation=1) -> Tensor
conv_transpose3d.input(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=1, SymInt[3] padding=0, SymInt[3] output_padding=0, SymInt groups=1, SymInt[3] dilation=1) -> Tensor
im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor
col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor
pixel_shuffle(Tensor self, int upscale_factor) -> Tensor
pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor
channel_shuffle(Tensor self, SymInt groups) -> Tensor
native_channel_shuffle(Tensor self, SymInt groups) -> Tensor
_ctc_loss(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, int blank=0, bool zero_infinity=False) -> (Tensor, Tensor)
_ctc_loss.Tensor(Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank=0, bool zero_infinity=False) -> (Tensor, Tensor)
_ctc_loss_backward(Tensor grad, Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, Tensor neg_log_likelihood, Tensor log_alpha, int blank, bool zero_infinity=False) -> Tensor
_ctc_loss_backward.Tensor(Tensor grad, Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, Tensor neg_log_likelihood, Tensor log_alpha, int blank, bool zero_infinity=False) -> Tensor
ctc_loss.IntList(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, int blank=0, int reduction=Mean, bool zero_infinity=False) -> Tensor
ctc_loss.Tensor(Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank=0, int reduction=Mean, bool zero_infinity=False) -> Tensor
cdist(Tensor x1, Tensor x2, float p=2, int? compute_mode=None) -> Tensor
_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor
_euclidean_dist(Tensor x1, Tensor x2) -> Tensor
pdist(Tensor self, float p=2) -> Tensor
_pdist_forward(Tensor self, float p=2) -> Tensor
cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor
bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor
_trilinear(Tensor i1, Tensor i2, Tensor i3, int[] expand1, int[] expand2, int[] expand3, int[] sumdim, int unroll_dim=1) -> Tensor
embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False) -> (Tensor, Tensor, Tensor, Tensor)
embedding_bag.padding_idx(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq, int mode, bool sparse, Tensor? per_sample_weights, bool include_last_offset, int? padding_idx) -> (Tensor, Tensor, Tensor, Tensor)
_embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)
_embedding_bag_forward_only(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)
_embedding_bag_backward(Tensor grad, Tensor indices, Tensor offsets, Tensor offset2bag, Tensor bag_size, Tensor maximum_indices, SymInt num_weights, bool scale_grad_by_freq, int mode, bool sparse, Tensor? per_sample_weights, int padding_idx=-1) -> Tensor
_embedding_bag_dense_backward(Tensor grad, Tensor indices, Tensor offset2bag, Tensor bag_size, Tensor maximum_indices, SymInt num_weights, bool scale_grad_by_freq, int mode, Tensor? per_sample_weights, int padding_idx=-1) -> Tensor
_embedding_bag_per_sample_weights_backward(Tensor grad, Tensor weight, Tensor indices, Tensor offsets, Tensor offset2bag, int mode, int padding_idx=-1) -> Tensor
embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, float norm_type) -> Tensor(a!)
dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)
feature_dropout(Tensor input, float p, bool train) -> Tensor
feature_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)
alpha_dropout(Tensor input, float p, bool train) -> Tensor
alpha_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)
feature_alpha_dropout(Tensor input, float p, bool train) -> Tensor
feature_alpha_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)
native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)
native_dropout_backward(Tensor grad_output, Tensor mask, float scale) -> Tensor
einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor
bitwise_left_shift.Tensor(Tensor self, Tensor other) -> Tensor
bitwise_left_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor
bitwise_right_shift.Tensor(Tensor self, Tensor other) -> Tensor
bitwise_right_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor
index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor
index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor(a!)
scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)
roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor
nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor
isin.Tensor_Tensor(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor
norm.Scalar(Tensor self, Scalar p=2) -> Tensor
norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor
var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor
std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor
var(Tensor self, bool unbiased=True) -> Tensor
std(Tensor self, bool unbiased=True) -> Tensor
tile(Tensor self, SymInt[] dims) -> Tensor
equal(Tensor self, Tensor other) -> bool
_local_scalar_dense(Tensor self) -> Scalar
copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor
fill.Scalar(Tensor self, Scalar value) -> Tensor
fill.Tensor(Tensor self, Tensor value) -> Tensor
rand.generator(SymInt[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
randn.generator(SymInt[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
randint.generator(SymInt high, SymInt[] size, *, Generator? generator, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
randint.low(SymInt low, SymInt high, SymInt[] size, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
randint.low_generator(SymInt low, SymInt high, SymInt[] size, *, Generator? generator, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
rand_like.generator(Tensor self, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
randn_like.generator(Tensor self, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
poisson(Tensor self, Generator? generator=None) -> Tensor
binomial(Tensor count, Tensor prob, Generator? generator=None) -> Tensor
index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor
index_copy_(Tensor(a!) self, int dim, Tensor index, Tensor source) -> Tensor(a!)
index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor
index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)
index_fill_.int_Tensor(Tensor(a!) self, int dim, Tensor index, Tensor value) -> Tensor(a!)
scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor
scatter_reduce_.two(Tensor(a!) self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor(a!)
take(Tensor self, Tensor index) -> Tensor
take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor
unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)
tensor_split.sections(Tensor(a -> *) self, SymInt sections, int dim=0) -> Tensor(a)[]
tensor_split.indices(Tensor(a -> *) self, SymInt[] indices, int dim=0) -> Tensor(a)[]
tensor_split.tensor_indices_or_sections(Tensor(a -> *) self, Tensor tensor_indices_or_sections, int dim=0) -> Tensor(a)[]
detach_(Tensor(a!) self) -> Tensor(a!)
index_reduce(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, bool include_self=True) -> Tensor
index_reduce_(Tensor(a!) self, int dim, Tensor index, Tensor source, str reduce, *, bool include_self=True) -> Tensor(a!)
leaky_relu_(Tensor(a!) self, Scalar negative_slope=0.01) -> Tensor(a!)
hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)
silu_(Tensor(a!) self) -> Tensor(a!)
eq_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
eq_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
ne_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
ne_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
lt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
lt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
le_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
le_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
gt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
gt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
ge_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
ge_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
bitwise_and_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
bitwise_or_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
bitwise_xor_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
logical_and_(Tensor(a!) self, Tensor other) -> Tensor(a!)
logical_or_(Tensor(a!) self, Tensor other) -> Tensor(a!)
logical_xor_(Tensor(a!) self, Tensor other) -> Tensor(a!)
logical_not_(Tensor(a!) self) -> Tensor(a!)
bitwise_not_(Tensor(a!) self) -> Tensor(a!)
bitwise_left_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
bitwise_left_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
bitwise_right_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
bitwise_right_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
atleast_1d(Tensor self) -> Tensor
atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]
atleast_2d(Tensor self) -> Tensor
atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]
atleast_3d(Tensor self) -> Tensor
atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]
hstack(Tensor[] tensors) -> Tensor
vstack(Tensor[] tensors) -> Tensor
dstack(Tensor[] tensors) -> Tensor
column_stack(Tensor[] tensors) -> Tensor
hsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]
hsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]
vsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]
vsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]
dsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]
dsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]
unsafe_split.Tensor(Tensor self, SymInt split_size, int dim=0) -> Tensor[]
unsafe_split_with_sizes(Tensor self, SymInt[] split_sizes, int dim=0) -> Tensor[]
unsafe_chunk(Tensor self, int chunks, int dim=0) -> Tensor[]
broadcast_to(Tensor(a) self, SymInt[] size) -> Tensor(a)
broadcast_tensors(Tensor[] tensors) -> Tensor[]
meshgrid(Tensor[] tensors) -> Tensor[]
meshgrid.indexing(Tensor[] tensors, *, str indexing) -> Tensor[]
cartesian_prod(Tensor[] tensors) -> Tensor
combinations(Tensor self, int r=2, bool with_replacement=False) -> Tensor
block_diag(Tensor[] tensors) -> Tensor
diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor
diag(Tensor self, int diagonal=0) -> Tensor
diagflat(Tensor self, int offset=0) -> Tensor
fliplr(Tensor self) -> Tensor
flipud(Tensor self) -> Tensor
rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor
ravel(Tensor(a) self) -> Tensor(a)
reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)
sum_to_size(Tensor self, SymInt[] size) -> Tensor
alias_copy(Tensor self) -> Tensor
as_strided_copy(Tensor self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor
diagonal_copy(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor
expand_copy(Tensor self, SymInt[] size, *, bool implicit=False) -> Tensor
narrow_copy(Tensor self, int dim, SymInt start, SymInt length) -> Tensor
permute_copy(Tensor self, int[] dims) -> Tensor
select_copy.int(Tensor self, int dim, SymInt index) -> Tensor
slice_copy.Tensor(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor
squeeze_copy(Tensor self) -> Tensor
squeeze_copy.dim(Tensor self, int dim) -> Tensor
squeeze_copy.dims(Tensor self, int[] dim) -> Tensor
t_copy(Tensor self) -> Tensor
transpose_copy.int(Tensor self, int dim0, int dim1) -> Tensor
unsqueeze_copy(Tensor self, int dim) -> Tensor
unfold_copy(Tensor self, int dimension, int size, int step) -> Tensor
view_copy(Tensor self, SymInt[] size) -> Tensor
view_copy.dtype(Tensor self, ScalarType dtype) -> Tensor
detach_copy(Tensor self) -> Tensor
split_copy.Tensor(Tensor self, SymInt split_size, int dim=0) -> Tensor[]
split_with_sizes_copy(Tensor self, SymInt[] split_sizes, int dim=0) -> Tensor[]
unbind_copy.int(Tensor self, int dim=0) -> Tensor[]
slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor
select_scatter(Tensor self, Tensor src, int dim, SymInt index) -> Tensor
diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor
as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor
tril_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
empty_permuted(SymInt[] size, int[] physical_layout, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
linalg_cholesky(Tensor self, *, bool upper=False) -> Tensor
linalg_inv(Tensor A) -> Tensor
linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> (Tensor result, Tensor info)
linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor
linalg_det(Tensor A) -> Tensor
linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)
slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)
logdet(Tensor self) -> Tensor
linalg_eigh(Tensor self, str UPLO="L") -> (Tensor eigenvalues, Tensor eigenvectors)
linalg_eigvalsh(Tensor self, str UPLO="L") -> Tensor
linalg_eigvals(Tensor self) -> Tensor
linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)
linalg_svdvals(Tensor A, *, str? driver=None) -> Tensor
svd(Tensor self, bool some=True, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor V)
linalg_lu_factor(Tensor A, *, bool pivot=True) -> (Tensor LU, Tensor pivots)
_lu_with_info(Tensor self, bool pivot=True, bool check_errors=True) -> (Tensor LU, Tensor pivots, Tensor info)
lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots) -> Tensor
linalg_ldl_factor(Tensor self, *, bool hermitian=False) -> (Tensor LD, Tensor pivots)
matrix_exp(Tensor self) -> Tensor
orgqr(Tensor self, Tensor input2) -> Tensor
linalg_pinv.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False) -> Tensor
linalg_pinv(Tensor self, float rcond, bool hermitian=False) -> Tensor
linalg_pinv.rcond_tensor(Tensor self, Tensor rcond, bool hermitian=False) -> Tensor
pinverse(Tensor self, float rcond=1e-15) -> Tensor
linalg_matrix_rank.atol_rtol_tensor(Tensor input, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False) -> Tensor
linalg_matrix_rank.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False) -> Tensor
linalg_matrix_rank(Tensor self, float tol, bool hermitian=False) -> Tensor
linalg_matrix_rank.tol_tensor(Tensor input, Tensor tol, bool hermitian=False) -> Tensor
linalg_cond(Tensor self, Scalar? p=None) -> Tensor
linalg_cond.p_str(Tensor self, str p) -> Tensor
linalg_diagonal(Tensor(a) A, *, int offset=0, int dim1=-2, int dim2=-1) -> Tensor(a)
linalg_multi_dot(Tensor[] tensors) -> Tensor
linalg_tensorinv(Tensor self, int ind=2) -> Tensor
linalg_tensorsolve(Tensor self, Tensor other, int[]? dims=None) -> Tensor
linalg_vander(Tensor x, *, SymInt? N=None) -> Tensor
linalg_vecdot(Tensor x, Tensor y, *, int dim=-1) -> Tensor
linalg_cholesky_ex(Tensor self, *, bool upper=False, bool check_errors=False) -> (Tensor L, Tensor info)
linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> (Tensor LU, Tensor pivots, Tensor info)
linalg_lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U)
lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True) -> (Tensor P, Tensor L, Tensor U)
linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False) -> Tensor
linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)
_linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> (Tensor result, Tensor LU, Tensor pivots, Tensor info)
_linalg_det(Tensor A) -> (Tensor result, Tensor LU, Tensor pivots)
_linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet, Tensor LU, Tensor pivots)
linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True, bool unitriangular=False) -> Tensor
triangular_solve(Tensor self, Tensor A, bool upper=True, bool transpose=False, bool unitriangular=False) -> (Tensor solution, Tensor cloned_coefficient)
cholesky_solve(Tensor self, Tensor input2, bool upper=False) -> Tensor
cholesky_inverse(Tensor self, bool upper=False) -> Tensor
linalg_ldl_factor_ex(Tensor self, *, bool hermitian=False, bool check_errors=False) -> (Tensor LD, Tensor pivots, Tensor info)
linalg_ldl_solve(Tensor LD, Tensor pivots, Tensor B, *, bool hermitian=False) -> Tensor
trace(Tensor self) -> Tensor
det(Tensor self) -> Tensor
inverse(Tensor self) -> Tensor
cholesky(Tensor self, bool upper=False) -> Tensor
linalg_qr(Tensor A, str mode='reduced') -> (Tensor Q, Tensor R)
linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor
cross(Tensor self, Tensor other, int? dim=None) -> Tensor
kron(Tensor self, Tensor other) -> Tensor
matrix_power(Tensor self, int n) -> Tensor
linalg_matrix_power(Tensor self, int n) -> Tensor
_linalg_eigh(Tensor A, str UPLO="L", bool compute_v=True) -> (Tensor eigenvalues, Tensor eigenvectors)
linalg_eig(Tensor self) -> (Tensor eigenvalues, Tensor eigenvectors)
_linalg_eigvals(Tensor self) -> Tensor
_linalg_svd(Tensor A, bool full_matrices=False, bool compute_uv=True, *, str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)
linalg_polar(Tensor A) -> (Tensor U, Tensor H)
linalg_matrix_sqrth(Tensor self) -> Tensor
linalg_matrix_exp(Tensor self) -> Tensor
linalg_pinv.atol_rtol_tensor(Tensor self, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False) -> Tensor
linalg_lstsq(Tensor self, Tensor b, float? rcond=None, *, str? driver=None) -> (Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)
geqrf(Tensor self) -> (Tensor a, Tensor tau)
linalg_householder_product(Tensor input, Tensor tau) -> Tensor
ormqr(Tensor self, Tensor input2, Tensor input3, bool left=True, bool transpose=False) -> Tensor
logspace(Scalar start, Scalar end, int steps, float base=10.0, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
logspace.out(Scalar start, Scalar end, int steps, float base=10.0, *, Tensor(a!) out) -> Tensor(a!)
logspace.Tensor_Tensor(Tensor start, Tensor end, int steps, float base=10.0, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
logspace.Tensor_Tensor_out(Tensor start, Tensor end, int steps, float base=10.0, *, Tensor(a!) out) -> Tensor(a!)
logspace.Tensor_Scalar(Tensor start, Scalar end, int steps, float base=10.0, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
logspace.Tensor_Scalar_out(Tensor start, Scalar end, int steps, float base=10.0, *, Tensor(a!) out) -> Tensor(a!)
logspace.Scalar_Tensor(Scalar start, Tensor end, int steps, float base=10.0, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
logspace.Scalar_Tensor_out(Scalar start, Tensor end, int steps, float base=10.0, *, Tensor(a!) out) -> Tensor(a!)
linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
linspace.Tensor_Tensor(Tensor start, Tensor end, int steps, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
linspace.Tensor_Scalar(Tensor start, Scalar end, int steps, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
linspace.Scalar_Tensor(Scalar start, Tensor end, int steps, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean) -> Tensor
binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, int reduction=Mean) -> Tensor
nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt ignore_index) -> (Tensor output, Tensor total_weight)
nll_loss2d_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt ignore_index) -> (Tensor output, Tensor total_weight)
nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt ignore_index=-100) -> Tensor
nll_loss2d(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt ignore_index=-100) -> Tensor
nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt ignore_index=-100) -> Tensor
cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt ignore_index=-100, float label_smoothing=0.0) -> Tensor
kl_div(Tensor self, Tensor target, int reduction=Mean, *, bool log_target=False) -> Tensor
l1_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor
smooth_l1_loss(Tensor self, Tensor target, int reduction=Mean, float beta=1.0) -> Tensor
mse_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor
huber_loss(Tensor self, Tensor target, int reduction=Mean, float delta=1.0) -> Tensor
soft_margin_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor
poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, float eps, int reduction) -> Tensor
hinge_embedding_loss(Tensor self, Tensor target, float margin=1.0, int reduction=Mean) -> Tensor
margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0.0, int reduction=Mean) -> Tensor
cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin=0.0, int reduction=Mean) -> Tensor
multi_margin_loss(Tensor self, Tensor target, Scalar p=1, Scalar margin=1, Tensor? weight=None, int reduction=Mean) -> Tensor
multilabel_margin_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor
multilabel_margin_loss_forward(Tensor self, Tensor target, int reduction) -> (Tensor output, Tensor is_target)
triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, float margin=1.0, float p=2, float eps=1e-06, bool swap=False, int reduction=Mean) -> Tensor
pairwise_distance(Tensor x1, Tensor x2, float p=2, float eps=1e-06, bool keepdim=False) -> Tensor
atan2(Tensor self, Tensor other) -> Tensor
atan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)
hypot(Tensor self, Tensor other) -> Tensor
hypot_(Tensor(a!) self, Tensor other) -> Tensor(a!)
logaddexp(Tensor self, Tensor other) -> Tensor
copysign.Tensor(Tensor self, Tensor other) -> Tensor
copysign.Scalar(Tensor self, Scalar other) -> Tensor
copysign_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
copysign_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
heaviside(Tensor self, Tensor values) -> Tensor
heaviside_(Tensor(a!) self, Tensor values) -> Tensor(a!)
sinc(Tensor self) -> Tensor
sinc_(Tensor(a!) self) -> Tensor(a!)
xlogy.Tensor(Tensor self, Tensor other) -> Tensor
xlogy.Scalar_Self(Scalar self, Tensor other) -> Tensor
xlogy.Scalar_Other(Tensor self, Scalar other) -> Tensor
xlogy_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
xlogy_.Scalar_Other(Tensor(a!) self, Scalar other) -> Tensor(a!)
frac(Tensor self) -> Tensor
frac_(Tensor(a!) self) -> Tensor(a!)
sgn(Tensor self) -> Tensor
sgn_(Tensor(a!) self) -> Tensor(a!)
lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor
lerp_.Scalar(Tensor(a!) self, Tensor end, Scalar weight) -> Tensor(a!)
lerp_.Tensor(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)
trunc_(Tensor(a!) self) -> Tensor(a!)
floor_(Tensor(a!) self) -> Tensor(a!)
ceil_(Tensor(a!) self) -> Tensor(a!)
round_(Tensor(a!) self) -> Tensor(a!)
round_.decimals(Tensor(a!) self, *, int decimals) -> Tensor(a!)
reciprocal_(Tensor(a!) self) -> Tensor(a!)
rsqrt_(Tensor(a!) self) -> Tensor(a!)
square_(Tensor(a!) self) -> Tensor(a!)
log2_(Tensor(a!) self) -> Tensor(a!)
log10_(Tensor(a!) self) -> Tensor(a!)
log1p_(Tensor(a!) self) -> Tensor(a!)
tan_(Tensor(a!) self) -> Tensor(a!)
erf_(Tensor(a!) self) -> Tensor(a!)
clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)
exp2_(Tensor(a!) self) -> Tensor(a!)
fmod_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
fmod_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
tril_(Tensor(a!) self, SymInt diagonal=0) -> Tensor(a!)
triu_(Tensor(a!) self, SymInt diagonal=0) -> Tensor(a!)
clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)
nan_to_num_(Tensor(a!) self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor(a!)
logaddexp2(Tensor self, Tensor other) -> Tensor
gelu_backward(Tensor grad_output, Tensor self, *, str approximate='none') -> Tensor
silu_backward(Tensor grad_output, Tensor self) -> Tensor
native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)
_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)
_native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)
_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)
_batch_norm_with_update(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor)
_batch_norm_no_update(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor)
batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor
instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool use_input_stats, float momentum, float eps, bool cudnn_enabled) -> Tensor
native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW, int group, float eps) -> (Tensor, Tensor, Tensor)
group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, bool cudnn_enabled=True) -> Tensor
native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)
native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, Tensor mean, Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask) -> (Tensor, Tensor, Tensor)
linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
linalg_matrix_norm(Tensor self, Scalar ord, int[] dim=[-2,-1], bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
linalg_matrix_norm.str_ord(Tensor self, str ord='fro', int[] dim=[-2,-1], bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
linalg_norm.ord_str(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
gcd(Tensor self, Tensor other) -> Tensor
gcd_(Tensor(a!) self, Tensor other) -> Tensor(a!)
lcm(Tensor self, Tensor other) -> Tensor
lcm_(Tensor(a!) self, Tensor other) -> Tensor(a!)
ldexp.Tensor(Tensor self, Tensor other) -> Tensor
ldexp_(Tensor(a!) self, Tensor other) -> Tensor(a!)
frexp.Tensor(Tensor self) -> (Tensor mantissa, Tensor exponent)
nextafter(Tensor self, Tensor other) -> Tensor
nextafter_(Tensor(a!) self, Tensor other) -> Tensor(a!)
float_power.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor
float_power.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor
float_power.Scalar(Scalar self, Tensor exponent) -> Tensor
float_power_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)
float_power_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)
positive(Tensor(a) self) -> Tensor(a)
put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor
put_(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False) -> Tensor(a!)
masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor
masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)
masked_scatter_backward(Tensor grad_output, Tensor mask, SymInt[] sizes) -> Tensor
_unsafe_masked_index(Tensor self, Tensor mask, Tensor?[] indices, Scalar fill) -> Tensor
_unsafe_masked_index_put_accumulate(Tensor self, Tensor mask, Tensor?[] indices, Tensor values) -> Tensor
nonzero_static(Tensor self, *, SymInt size, int fill_value=-1) -> Tensor
_chunk_cat(Tensor[] tensors, int dim, int num_chunks) -> Tensor
hash_tensor(Tensor self, int[1] dim=[], *, bool keepdim=False, int mode=0) -> Tensor
clamp_min.Tensor(Tensor self, Tensor min) -> Tensor
clamp_min_.Tensor(Tensor(a!) self, Tensor min) -> Tensor(a!)
clamp_max.Tensor(Tensor self, Tensor max) -> Tensor
clamp_max_.Tensor(Tensor(a!) self, Tensor max) -> Tensor(a!)
clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)
max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, int[1] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)
max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, int[1] dilation=1, bool ceil_mode=False) -> Tensor
max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor
max_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> Tensor
max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)
max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)
max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor
max_pool3d_with_indices_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride, int[3] padding, int[3] dilation, bool ceil_mode, Tensor indices) -> Tensor
avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, bool ceil_mode=False, bool count_include_pad=True) -> Tensor
avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor
avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor
avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor
avg_pool3d_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride, int[3] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor
adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor
adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor
adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor
_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor
_adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor
_adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor
_adaptive_avg_pool3d_backward(Tensor grad_output, Tensor self) -> Tensor
adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)
adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)
adaptive_max_pool3d(Tensor self, int[3] output_size) -> (Tensor, Tensor)
adaptive_max_pool2d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor
adaptive_max_pool3d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor
fractional_max_pool2d(Tensor self, int[2] kernel_size, int[2] output_size, Tensor random_samples) -> (Tensor, Tensor)
fractional_max_pool3d(Tensor self, int[3] kernel_size, int[3] output_size, Tensor random_samples) -> (Tensor, Tensor)
fractional_max_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] output_size, Tensor indices) -> Tensor
fractional_max_pool3d_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] output_size, Tensor indices) -> Tensor
max_unpool2d(Tensor self, Tensor indices, SymInt[2] output_size) -> Tensor
max_unpool3d(Tensor self, Tensor indices, SymInt[3] output_size, int[3] stride, int[3] padding) -> Tensor
vdot(Tensor self, Tensor other) -> Tensor
tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor
inner(Tensor self, Tensor other) -> Tensor
cauchy_(Tensor(a!) self, float median=0, float sigma=1, *, Generator? generator=None) -> Tensor(a!)
exponential_(Tensor(a!) self, float lambd=1, *, Generator? generator=None) -> Tensor(a!)
log_normal_(Tensor(a!) self, float mean=1, float std=2, *, Generator? generator=None) -> Tensor(a!)
geometric_(Tensor(a!) self, float p, *, Generator? generator=None) -> Tensor(a!)
bernoulli(Tensor self, *, Generator? generator=None) -> Tensor
bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor
bernoulli_.Tensor(Tensor(a!) self, Tensor p, *, Generator? generator=None) -> Tensor(a!)
bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)
random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!)
random_.to(Tensor(a!) self, int to, *, Generator? generator=None) -> Tensor(a!)
random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)
randint_like(Tensor self, SymInt high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
randint_like.generator(Tensor self, SymInt high, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
randint_like.Tensor(Tensor self, Tensor high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
randint_like.Tensor_generator(Tensor self, Tensor high, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
randint_like.low_dtype(Tensor self, SymInt low, SymInt high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
randint_like.low_generator_dtype(Tensor self, SymInt low, SymInt high, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
multinomial(Tensor self, SymInt num_samples, bool replacement=False, *, Generator? generator=None) -> Tensor
multinomial.out(Tensor self, SymInt num_samples, bool replacement=False, *, Generator? generator=None, Tensor(a!) out) -> Tensor(a!)
normal.Tensor_float(Tensor mean, float std=1, *, Generator? generator=None) -> Tensor
normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor
normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> Tensor
normal.float_float(float mean, float std, SymInt[] size, *, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
normal.float_float_out(float mean, float std, SymInt[] size, *, Generator? generator=None, Tensor(a!) out) -> Tensor(a!)
nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)
cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)
median(Tensor self) -> Tensor
median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)
var_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)
var_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)
var_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)
std_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)
std_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)
std_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)
cumprod_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)
cumsum_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)
resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor(a!)
resize_as_(Tensor(a!) self, Tensor the_template, *, MemoryFormat? memory_format=None) -> Tensor(a!)
upsample_nearest1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor
upsample_nearest1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor
upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor
upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor
upsample_nearest3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor
upsample_nearest3d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor
_upsample_nearest_exact1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor
_upsample_nearest_exact1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor
_upsample_nearest_exact2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor
_upsample_nearest_exact2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor
_upsample_nearest_exact3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor
_upsample_nearest_exact3d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor
upsample_linear1d(Tensor self, SymInt[1] output_size, bool align_corners, float? scales=None) -> Tensor
upsample_linear1d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor
upsample_bilinear2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor
upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor
upsample_trilinear3d(Tensor self, SymInt[3] output_size, bool align_corners, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor
upsample_trilinear3d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor
upsample_bicubic2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor
upsample_bicubic2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor
_upsample_bilinear2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor
_upsample_bilinear2d_aa.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor
_upsample_bicubic2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor
_upsample_bicubic2d_aa.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor
upsample_nearest1d_backward(Tensor grad_output, SymInt[1] output_size, SymInt[3] input_size, float? scales=None) -> Tensor
upsample_nearest2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, float? scales_h=None, float? scales_w=None) -> Tensor
upsample_nearest3d_backward(Tensor grad_output, SymInt[3] output_size, SymInt[5] input_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor
_upsample_nearest_exact1d_backward(Tensor grad_output, SymInt[1] output_size, SymInt[3] input_size, float? scales=None) -> Tensor
_upsample_nearest_exact2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, float? scales_h=None, float? scales_w=None) -> Tensor
_upsample_nearest_exact3d_backward(Tensor grad_output, SymInt[3] output_size, SymInt[5] input_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor
upsample_linear1d_backward(Tensor grad_output, SymInt[1] output_size, SymInt[3] input_size, bool align_corners, float? scales=None) -> Tensor
upsample_bilinear2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor
upsample_trilinear3d_backward(Tensor grad_output, SymInt[3] output_size, SymInt[5] input_size, bool align_corners, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor
upsample_bicubic2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor
_upsample_bilinear2d_aa_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor
_upsample_bicubic2d_aa_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor
grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor
grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor
grid_sampler_3d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor
grid_sampler_2d_backward(Tensor grad_output, Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners, bool[2] output_mask) -> (Tensor, Tensor)
grid_sampler_3d_backward(Tensor grad_output, Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners, bool[2] output_mask) -> (Tensor, Tensor)
scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor
addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
addr_(Tensor(a!) self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)
addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor
addcmul_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)
addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor
addcdiv_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)
addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)
addmv_(Tensor(a!) self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)
addbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)
baddbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)
digamma(Tensor self) -> Tensor
digamma_(Tensor(a!) self) -> Tensor(a!)
lgamma(Tensor self) -> Tensor
lgamma_(Tensor(a!) self) -> Tensor(a!)
erfc(Tensor self) -> Tensor
erfc_(Tensor(a!) self) -> Tensor(a!)
erfinv(Tensor self) -> Tensor
erfinv_(Tensor(a!) self) -> Tensor(a!)
i0(Tensor self) -> Tensor
i0_(Tensor(a!) self) -> Tensor(a!)
special_i0e(Tensor self) -> Tensor
special_i1(Tensor self) -> Tensor
special_i1e(Tensor self) -> Tensor
special_entr(Tensor self) -> Tensor
special_erfcx(Tensor self) -> Tensor
special_ndtri(Tensor self) -> Tensor
special_log_ndtr(Tensor self) -> Tensor
special_airy_ai(Tensor x) -> Tensor
special_bessel_j0(Tensor self) -> Tensor
special_bessel_j1(Tensor self) -> Tensor
special_bessel_y0(Tensor self) -> Tensor
special_bessel_y1(Tensor self) -> Tensor
special_modified_bessel_i0(Tensor self) -> Tensor
special_modified_bessel_i1(Tensor self) -> Tensor
special_modified_bessel_k0(Tensor self) -> Tensor
special_modified_bessel_k1(Tensor self) -> Tensor
special_scaled_modified_bessel_k0(Tensor x) -> Tensor
special_scaled_modified_bessel_k1(Tensor x) -> Tensor
special_spherical_bessel_j0(Tensor x) -> Tensor
polygamma(int n, Tensor self) -> Tensor
polygamma_(Tensor(a!) self, int n) -> Tensor(a!)
mvlgamma(Tensor self, int p) -> Tensor
mvlgamma_(Tensor(a!) self, int p) -> Tensor(a!)
igamma(Tensor self, Tensor other) -> Tensor
igamma_(Tensor(a!) self, Tensor other) -> Tensor(a!)
igammac(Tensor self, Tensor other) -> Tensor
igammac_(Tensor(a!) self, Tensor other) -> Tensor(a!)
special_xlog1py(Tensor self, Tensor other) -> Tensor
special_xlog1py.self_scalar(Scalar self, Tensor other) -> Tensor
special_xlog1py.other_scalar(Tensor self, Scalar other) -> Tensor
special_zeta(Tensor self, Tensor other) -> Tensor
special_zeta.self_scalar(Scalar self, Tensor other) -> Tensor
special_zeta.other_scalar(Tensor self, Scalar other) -> Tensor
special_chebyshev_polynomial_t(Tensor x, Tensor n) -> Tensor
special_chebyshev_polynomial_t.x_scalar(Scalar x, Tensor n) -> Tensor
special_chebyshev_polynomial_t.n_scalar(Tensor x, Scalar n) -> Tensor
special_chebyshev_polynomial_u(Tensor x, Tensor n) -> Tensor
special_chebyshev_polynomial_u.x_scalar(Scalar x, Tensor n) -> Tensor
special_chebyshev_polynomial_u.n_scalar(Tensor x, Scalar n) -> Tensor
special_chebyshev_polynomial_v(Tensor x, Tensor n) -> Tensor
special_chebyshev_polynomial_v.x_scalar(Scalar x, Tensor n) -> Tensor
special_chebyshev_polynomial_v.n_scalar(Tensor x, Scalar n) -> Tensor
special_chebyshev_polynomial_w(Tensor x, Tensor n) -> Tensor
special_chebyshev_polynomial_w.x_scalar(Scalar x, Tensor n) -> Tensor
special_chebyshev_polynomial_w.n_scalar(Tensor x, Scalar n) -> Tensor
special_shifted_chebyshev_polynomial_t(Tensor x, Tensor n) -> Tensor
special_shifted_chebyshev_polynomial_t.x_scalar(Scalar x, Tensor n) -> Tensor
special_shifted_chebyshev_polynomial_t.n_scalar(Tensor x, Scalar n) -> Tensor
special_shifted_chebyshev_polynomial_u(Tensor x, Tensor n) -> Tensor
special_shifted_chebyshev_polynomial_u.x_scalar(Scalar x, Tensor n) -> Tensor
special_shifted_chebyshev_polynomial_u.n_scalar(Tensor x, Scalar n) -> Tensor
special_shifted_chebyshev_polynomial_v(Tensor x, Tensor n) -> Tensor
special_shifted_chebyshev_polynomial_v.x_scalar(Scalar x, Tensor n) -> Tensor
special_shifted_chebyshev_polynomial_v.n_scalar(Tensor x, Scalar n) -> Tensor
special_shifted_chebyshev_polynomial_w(Tensor x, Tensor n) -> Tensor
special_shifted_chebyshev_polynomial_w.x_scalar(Scalar x, Tensor n) -> Tensor
special_shifted_chebyshev_polynomial_w.n_scalar(Tensor x, Scalar n) -> Tensor
special_hermite_polynomial_h(Tensor x, Tensor n) -> Tensor
special_hermite_polynomial_h.x_scalar(Scalar x, Tensor n) -> Tensor
special_hermite_polynomial_h.n_scalar(Tensor x, Scalar n) -> Tensor
special_hermite_polynomial_he(Tensor x, Tensor n) -> Tensor
special_hermite_polynomial_he.x_scalar(Scalar x, Tensor n) -> Tensor
special_hermite_polynomial_he.n_scalar(Tensor x, Scalar n) -> Tensor
special_laguerre_polynomial_l(Tensor x, Tensor n) -> Tensor
special_laguerre_polynomial_l.x_scalar(Scalar x, Tensor n) -> Tensor
special_laguerre_polynomial_l.n_scalar(Tensor x, Scalar n) -> Tensor
special_legendre_polynomial_p(Tensor x, Tensor n) -> Tensor
special_legendre_polynomial_p.x_scalar(Scalar x, Tensor n) -> Tensor
special_legendre_polynomial_p.n_scalar(Tensor x, Scalar n) -> Tensor
special_psi(Tensor self) -> Tensor
special_digamma(Tensor self) -> Tensor
special_gammaln(Tensor self) -> Tensor
special_erf(Tensor self) -> Tensor
special_erfc(Tensor self) -> Tensor
special_erfinv(Tensor self) -> Tensor
special_i0(Tensor self) -> Tensor
special_expit(Tensor self) -> Tensor
special_exp2(Tensor self) -> Tensor
special_expm1(Tensor self) -> Tensor
special_log1p(Tensor self) -> Tensor
special_sinc(Tensor self) -> Tensor
special_logit(Tensor self, float? eps=None) -> Tensor
special_round(Tensor self, *, int decimals=0) -> Tensor
special_xlogy(Tensor self, Tensor other) -> Tensor
special_xlogy.self_scalar(Scalar self, Tensor other) -> Tensor
special_xlogy.other_scalar(Tensor self, Scalar other) -> Tensor
special_log_softmax(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
special_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
special_logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor
special_gammainc(Tensor self, Tensor other) -> Tensor
special_gammaincc(Tensor self, Tensor other) -> Tensor
special_polygamma(int n, Tensor self) -> Tensor
special_multigammaln(Tensor self, int p) -> Tensor
special_ndtr(Tensor self) -> Tensor
_fft_c2c(Tensor self, SymInt[] dim, int normalization, bool forward) -> Tensor
_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor
_fft_c2r(Tensor self, int[] dim, int normalization, SymInt last_dim_size) -> Tensor
fft_fft(Tensor self, SymInt? n=None, int dim=-1, str? norm=None) -> Tensor
fft_ifft(Tensor self, SymInt? n=None, int dim=-1, str? norm=None) -> Tensor
fft_rfft(Tensor self, SymInt? n=None, int dim=-1, str? norm=None) -> Tensor
fft_irfft(Tensor self, SymInt? n=None, int dim=-1, str? norm=None) -> Tensor
fft_hfft(Tensor self, SymInt? n=None, int dim=-1, str? norm=None) -> Tensor
fft_ihfft(Tensor self, SymInt? n=None, int dim=-1, str? norm=None) -> Tensor
fft_fft2(Tensor self, SymInt[1]? s=None, int[1] dim=[-2,-1], str? norm=None) -> Tensor
fft_ifft2(Tensor self, SymInt[1]? s=None, int[1] dim=[-2,-1], str? norm=None) -> Tensor
fft_rfft2(Tensor self, SymInt[1]? s=None, int[1] dim=[-2,-1], str? norm=None) -> Tensor
fft_irfft2(Tensor self, SymInt[1]? s=None, int[1] dim=[-2,-1], str? norm=None) -> Tensor
fft_hfft2(Tensor self, SymInt[1]? s=None, int[1] dim=[-2,-1], str? norm=None) -> Tensor
fft_ihfft2(Tensor self, SymInt[1]? s=None, int[1] dim=[-2,-1], str? norm=None) -> Tensor
fft_fftn(Tensor self, SymInt[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor
fft_ifftn(Tensor self, SymInt[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor
fft_rfftn(Tensor self, SymInt[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor
fft_irfftn(Tensor self, SymInt[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor
fft_hfftn(Tensor self, SymInt[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor
fft_ihfftn(Tensor self, SymInt[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor
fft_fftshift(Tensor self, int[1]? dim=None) -> Tensor
fft_ifftshift(Tensor self, int[1]? dim=None) -> Tensor
unfold_backward(Tensor grad_in, SymInt[] input_sizes, int dim, int size, int step) -> Tensor
stft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, bool normalized=False, bool? onesided=None, bool? return_complex=None, bool? align_to_window=None) -> Tensor
stft.center(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, bool center=True, str pad_mode="reflect", bool normalized=False, bool? onesided=None, bool? return_complex=None, bool? align_to_window=None) -> Tensor
istft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, bool center=True, bool normalized=False, bool? onesided=None, int? length=None, bool return_complex=False) -> Tensor
_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)
_unique(Tensor self, bool sorted=True, bool return_inverse=False) -> (Tensor, Tensor)
unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)
unique_dim_consecutive(Tensor self, int dim, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)
unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None) -> (Tensor, Tensor, Tensor)
bincount(Tensor self, Tensor? weights=None, SymInt minlength=0) -> Tensor
_histogramdd_bin_edges(Tensor self, int[] bins, *, float[]? range=None, Tensor? weight=None, bool density=False) -> Tensor[]
_histogramdd_from_bin_cts(Tensor self, int[] bins, *, float[]? range=None, Tensor? weight=None, bool density=False) -> Tensor
_histogramdd_from_bin_tensors(Tensor self, Tensor[] bins, *, Tensor? weight=None, bool density=False) -> Tensor
histogramdd(Tensor self, int[] bins, float[]? range=None, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor[] bin_edges)
histogramdd.int_bins(Tensor self, int bins, float[]? range=None, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor[] bin_edges)
histogramdd.TensorList_bins(Tensor self, Tensor[] bins, float[]? range=None, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor[] bin_edges)
histogram.bins_tensor(Tensor self, Tensor bins, *, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor bin_edges)
histogram.bin_ct(Tensor self, int bins=100, *, float[]? range=None, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor bin_edges)
histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor
nanmedian(Tensor self) -> Tensor
nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
_logcumsumexp(Tensor self, int dim) -> Tensor
logcumsumexp(Tensor self, int dim) -> Tensor
renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor
renorm_(Tensor(a!) self, Scalar p, int dim, Scalar maxnorm) -> Tensor(a!)
dist(Tensor self, Tensor other, Scalar p=2) -> Tensor
segment_reduce(Tensor data, str reduce, *, Tensor? lengths=None, Tensor? indices=None, Tensor? offsets=None, int axis=0, bool unsafe=False, Scalar? initial=None) -> Tensor
_segment_reduce_backward(Tensor grad, Tensor output, Tensor data, str reduce, *, Tensor? lengths=None, Tensor? offsets=None, int axis=0, Scalar? initial=None) -> Tensor
msort(Tensor self) -> Tensor
trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor
trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor
trapz.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor
trapz.dx(Tensor y, *, float dx=1, int dim=-1) -> Tensor
cumulative_trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor
cumulative_trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor
cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> Tensor
corrcoef(Tensor self) -> Tensor
quantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor
quantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor
nanquantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor
nanquantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor
gradient.tensorarrayint(Tensor self, *, Tensor[] spacing, int? dim=None, int edge_order=1) -> Tensor[]
gradient.tensorarray(Tensor self, *, Tensor[] spacing, int[] dim, int edge_order=1) -> Tensor[]
gradient.scalarint(Tensor self, *, Scalar? spacing=None, int? dim=None, int edge_order=1) -> Tensor[]
gradient.scalararray(Tensor self, *, Scalar spacing, int[] dim, int edge_order=1) -> Tensor[]
gradient.array(Tensor self, *, int[] dim, int edge_order=1) -> Tensor[]
gradient.scalarrayint(Tensor self, *, Scalar[] spacing, int? dim=None, int edge_order=1) -> Tensor[]
gradient.scalarrayarray(Tensor self, *, Scalar[] spacing, int[] dim, int edge_order=1) -> Tensor[]
is_nonzero(Tensor self) -> bool
is_same_size(Tensor self, Tensor other) -> bool
is_signed(Tensor self) -> bool
is_pinned(Tensor self, Device? device=None) -> bool
pin_memory(Tensor(a) self, Device? device=None) -> Tensor(a)
range.step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
range(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
vander(Tensor x, int? N=None, bool increasing=False) -> Tensor
chain_matmul(Tensor[] matrices) -> Tensor
frobenius_norm.dim(Tensor self, int[1] dim, bool keepdim=False) -> Tensor
nuclear_norm(Tensor self, bool keepdim=False) -> Tensor
nuclear_norm.dim(Tensor self, int[2] dim, bool keepdim=False) -> Tensor
negative_(Tensor(a!) self) -> Tensor(a!)
fill_diagonal_(Tensor(a!) self, Scalar fill_value, bool wrap=False) -> Tensor(a!)
slice_inverse(Tensor(a) self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)
asin(Tensor self) -> Tensor
acos(Tensor self) -> Tensor
atan(Tensor self) -> Tensor
sinh(Tensor self) -> Tensor
cosh(Tensor self) -> Tensor
asinh(Tensor self) -> Tensor
acosh(Tensor self) -> Tensor
atanh(Tensor self) -> Tensor
deg2rad(Tensor self) -> Tensor
rad2deg(Tensor self) -> Tensor
asin_(Tensor(a!) self) -> Tensor(a!)
acos_(Tensor(a!) self) -> Tensor(a!)
atan_(Tensor(a!) self) -> Tensor(a!)
sinh_(Tensor(a!) self) -> Tensor(a!)
cosh_(Tensor(a!) self) -> Tensor(a!)
asinh_(Tensor(a!) self) -> Tensor(a!)
acosh_(Tensor(a!) self) -> Tensor(a!)
atanh_(Tensor(a!) self) -> Tensor(a!)
deg2rad_(Tensor(a!) self) -> Tensor(a!)
rad2deg_(Tensor(a!) self) -> Tensor(a!)
logit(Tensor self, float? eps=None) -> Tensor
logit_(Tensor(a!) self, float? eps=None) -> Tensor(a!)
signbit(Tensor self) -> Tensor
fmax(Tensor self, Tensor other) -> Tensor
fmin(Tensor self, Tensor other) -> Tensor
isposinf(Tensor self) -> Tensor
isneginf(Tensor self) -> Tensor
_unsafe_view(Tensor self, SymInt[] size) -> Tensor
hann_window(int window_length, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
hann_window.periodic(int window_length, bool periodic, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
hamming_window(int window_length, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
hamming_window.periodic(int window_length, bool periodic, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
blackman_window(int window_length, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
blackman_window.periodic(int window_length, bool periodic, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
bartlett_window(int window_length, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
bartlett_window.periodic(int window_length, bool periodic, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
kaiser_window(int window_length, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
kaiser_window.periodic(int window_length, bool periodic, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
hamming_window.periodic_alpha(int window_length, bool periodic, float alpha, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
hamming_window.periodic_alpha_beta(int window_length, bool periodic, float alpha, float beta, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
kaiser_window.beta(int window_length, bool periodic, float beta, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
randperm(SymInt n, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
randperm.generator(SymInt n, *, Generator? generator, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor""".split("\n"))

# (out= schema, functional overload, exact dtype?) declared beside their functional operators.
OUT = (('complex.out(Tensor real, Tensor imag, *, Tensor(a!) out) -> Tensor(a!)', 'complex', True),
 ('polar.out(Tensor abs, Tensor angle, *, Tensor(a!) out) -> Tensor(a!)', 'polar', True),
 ('conj_physical.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'conj_physical', False),
 ('angle.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'angle', False),
 ('poisson.out(Tensor self, Generator? generator=None, *, Tensor(a!) out) -> Tensor(a!)', 'poisson', False),
 ('binomial.out(Tensor count, Tensor prob, Generator? generator=None, *, Tensor(a!) out) -> Tensor(a!)',
  'binomial',
  False),
 ('index_reduce.out(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, bool include_self=True, '
  'Tensor(a!) out) -> Tensor(a!)',
  'index_reduce',
  False),
 ('hstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)', 'hstack', False),
 ('vstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)', 'vstack', False),
 ('dstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)', 'dstack', False),
 ('column_stack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)', 'column_stack', False),
 ('diag.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)', 'diag', False),
 ('logaddexp2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', 'logaddexp2', False),
 ('gcd.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', 'gcd', False),
 ('lcm.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', 'lcm', False),
 ('ldexp.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', 'ldexp.Tensor', False),
 ('nextafter.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', 'nextafter', False),
 ('float_power.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)',
  'float_power.Tensor_Tensor',
  False),
 ('float_power.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)',
  'float_power.Tensor_Scalar',
  False),
 ('float_power.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)',
  'float_power.Scalar',
  False),
 ('nonzero_static.out(Tensor self, *, SymInt size, int fill_value=-1, Tensor(a!) out) -> Tensor(a!)',
  'nonzero_static',
  False),
 ('_chunk_cat.out(Tensor[] tensors, int dim, int num_chunks, *, Tensor(a!) out) -> Tensor(a!)', '_chunk_cat', False),
 ('hash_tensor.out(Tensor self, int[1] dim=[], *, bool keepdim=False, int mode=0, Tensor(a!) out) -> Tensor(a!)',
  'hash_tensor',
  False),
 ('clamp_min.Tensor_out(Tensor self, Tensor min, *, Tensor(a!) out) -> Tensor(a!)', 'clamp_min.Tensor', False),
 ('clamp_max.Tensor_out(Tensor self, Tensor max, *, Tensor(a!) out) -> Tensor(a!)', 'clamp_max.Tensor', False),
 ('vdot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', 'vdot', True),
 ('inner.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', 'inner', False),
 ('bernoulli.out(Tensor self, *, Generator? generator=None, Tensor(a!) out) -> Tensor(a!)', 'bernoulli', False),
 ('normal.Tensor_float_out(Tensor mean, float std=1, *, Generator? generator=None, Tensor(a!) out) -> Tensor(a!)',
  'normal.Tensor_float',
  False),
 ('normal.float_Tensor_out(float mean, Tensor std, *, Generator? generator=None, Tensor(a!) out) -> Tensor(a!)',
  'normal.float_Tensor',
  False),
 ('normal.Tensor_Tensor_out(Tensor mean, Tensor std, *, Generator? generator=None, Tensor(a!) out) -> Tensor(a!)',
  'normal.Tensor_Tensor',
  False),
 ('addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)',
  'addmm',
  True),
 ('addmv.out(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)',
  'addmv',
  True),
 ('addr.out(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)',
  'addr',
  False),
 ('addbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> '
  'Tensor(a!)',
  'addbmm',
  True),
 ('baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> '
  'Tensor(a!)',
  'baddbmm',
  True),
 ('addcmul.out(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor(a!) out) -> Tensor(a!)',
  'addcmul',
  False),
 ('addcdiv.out(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor(a!) out) -> Tensor(a!)',
  'addcdiv',
  False),
 ('digamma.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'digamma', False),
 ('lgamma.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'lgamma', False),
 ('erfc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'erfc', False),
 ('erfinv.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'erfinv', False),
 ('i0.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'i0', False),
 ('special_i0e.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_i0e', False),
 ('special_i1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_i1', False),
 ('special_i1e.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_i1e', False),
 ('special_entr.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_entr', False),
 ('special_erfcx.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_erfcx', False),
 ('special_ndtri.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_ndtri', False),
 ('special_log_ndtr.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_log_ndtr', False),
 ('special_airy_ai.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)', 'special_airy_ai', False),
 ('special_bessel_j0.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_bessel_j0', False),
 ('special_bessel_j1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_bessel_j1', False),
 ('special_bessel_y0.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_bessel_y0', False),
 ('special_bessel_y1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_bessel_y1', False),
 ('special_modified_bessel_i0.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)',
  'special_modified_bessel_i0',
  False),
 ('special_modified_bessel_i1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)',
  'special_modified_bessel_i1',
  False),
 ('special_modified_bessel_k0.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)',
  'special_modified_bessel_k0',
  False),
 ('special_modified_bessel_k1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)',
  'special_modified_bessel_k1',
  False),
 ('special_scaled_modified_bessel_k0.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)',
  'special_scaled_modified_bessel_k0',
  False),
 ('special_scaled_modified_bessel_k1.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)',
  'special_scaled_modified_bessel_k1',
  False),
 ('special_spherical_bessel_j0.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)', 'special_spherical_bessel_j0', False),
 ('polygamma.out(int n, Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'polygamma', False),
 ('mvlgamma.out(Tensor self, int p, *, Tensor(a!) out) -> Tensor(a!)', 'mvlgamma', False),
 ('igamma.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', 'igamma', False),
 ('igammac.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', 'igammac', False),
 ('special_xlog1py.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', 'special_xlog1py', False),
 ('special_xlog1py.self_scalar_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)',
  'special_xlog1py.self_scalar',
  False),
 ('special_xlog1py.other_scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)',
  'special_xlog1py.other_scalar',
  False),
 ('special_zeta.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', 'special_zeta', False),
 ('special_zeta.self_scalar_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)',
  'special_zeta.self_scalar',
  False),
 ('special_zeta.other_scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)',
  'special_zeta.other_scalar',
  False),
 ('special_chebyshev_polynomial_t.out(Tensor x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_chebyshev_polynomial_t',
  False),
 ('special_chebyshev_polynomial_t.x_scalar_out(Scalar x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_chebyshev_polynomial_t.x_scalar',
  False),
 ('special_chebyshev_polynomial_t.n_scalar_out(Tensor x, Scalar n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_chebyshev_polynomial_t.n_scalar',
  False),
 ('special_chebyshev_polynomial_u.out(Tensor x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_chebyshev_polynomial_u',
  False),
 ('special_chebyshev_polynomial_u.x_scalar_out(Scalar x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_chebyshev_polynomial_u.x_scalar',
  False),
 ('special_chebyshev_polynomial_u.n_scalar_out(Tensor x, Scalar n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_chebyshev_polynomial_u.n_scalar',
  False),
 ('special_chebyshev_polynomial_v.out(Tensor x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_chebyshev_polynomial_v',
  False),
 ('special_chebyshev_polynomial_v.x_scalar_out(Scalar x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_chebyshev_polynomial_v.x_scalar',
  False),
 ('special_chebyshev_polynomial_v.n_scalar_out(Tensor x, Scalar n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_chebyshev_polynomial_v.n_scalar',
  False),
 ('special_chebyshev_polynomial_w.out(Tensor x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_chebyshev_polynomial_w',
  False),
 ('special_chebyshev_polynomial_w.x_scalar_out(Scalar x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_chebyshev_polynomial_w.x_scalar',
  False),
 ('special_chebyshev_polynomial_w.n_scalar_out(Tensor x, Scalar n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_chebyshev_polynomial_w.n_scalar',
  False),
 ('special_shifted_chebyshev_polynomial_t.out(Tensor x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_shifted_chebyshev_polynomial_t',
  False),
 ('special_shifted_chebyshev_polynomial_t.x_scalar_out(Scalar x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_shifted_chebyshev_polynomial_t.x_scalar',
  False),
 ('special_shifted_chebyshev_polynomial_t.n_scalar_out(Tensor x, Scalar n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_shifted_chebyshev_polynomial_t.n_scalar',
  False),
 ('special_shifted_chebyshev_polynomial_u.out(Tensor x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_shifted_chebyshev_polynomial_u',
  False),
 ('special_shifted_chebyshev_polynomial_u.x_scalar_out(Scalar x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_shifted_chebyshev_polynomial_u.x_scalar',
  False),
 ('special_shifted_chebyshev_polynomial_u.n_scalar_out(Tensor x, Scalar n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_shifted_chebyshev_polynomial_u.n_scalar',
  False),
 ('special_shifted_chebyshev_polynomial_v.out(Tensor x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_shifted_chebyshev_polynomial_v',
  False),
 ('special_shifted_chebyshev_polynomial_v.x_scalar_out(Scalar x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_shifted_chebyshev_polynomial_v.x_scalar',
  False),
 ('special_shifted_chebyshev_polynomial_v.n_scalar_out(Tensor x, Scalar n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_shifted_chebyshev_polynomial_v.n_scalar',
  False),
 ('special_shifted_chebyshev_polynomial_w.out(Tensor x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_shifted_chebyshev_polynomial_w',
  False),
 ('special_shifted_chebyshev_polynomial_w.x_scalar_out(Scalar x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_shifted_chebyshev_polynomial_w.x_scalar',
  False),
 ('special_shifted_chebyshev_polynomial_w.n_scalar_out(Tensor x, Scalar n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_shifted_chebyshev_polynomial_w.n_scalar',
  False),
 ('special_hermite_polynomial_h.out(Tensor x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_hermite_polynomial_h',
  False),
 ('special_hermite_polynomial_h.x_scalar_out(Scalar x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_hermite_polynomial_h.x_scalar',
  False),
 ('special_hermite_polynomial_h.n_scalar_out(Tensor x, Scalar n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_hermite_polynomial_h.n_scalar',
  False),
 ('special_hermite_polynomial_he.out(Tensor x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_hermite_polynomial_he',
  False),
 ('special_hermite_polynomial_he.x_scalar_out(Scalar x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_hermite_polynomial_he.x_scalar',
  False),
 ('special_hermite_polynomial_he.n_scalar_out(Tensor x, Scalar n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_hermite_polynomial_he.n_scalar',
  False),
 ('special_laguerre_polynomial_l.out(Tensor x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_laguerre_polynomial_l',
  False),
 ('special_laguerre_polynomial_l.x_scalar_out(Scalar x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_laguerre_polynomial_l.x_scalar',
  False),
 ('special_laguerre_polynomial_l.n_scalar_out(Tensor x, Scalar n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_laguerre_polynomial_l.n_scalar',
  False),
 ('special_legendre_polynomial_p.out(Tensor x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_legendre_polynomial_p',
  False),
 ('special_legendre_polynomial_p.x_scalar_out(Scalar x, Tensor n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_legendre_polynomial_p.x_scalar',
  False),
 ('special_legendre_polynomial_p.n_scalar_out(Tensor x, Scalar n, *, Tensor(a!) out) -> Tensor(a!)',
  'special_legendre_polynomial_p.n_scalar',
  False),
 ('special_psi.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_psi', False),
 ('special_digamma.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_digamma', False),
 ('special_gammaln.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_gammaln', False),
 ('special_erf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_erf', False),
 ('special_erfc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_erfc', False),
 ('special_erfinv.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_erfinv', False),
 ('special_i0.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_i0', False),
 ('special_expit.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_expit', False),
 ('special_exp2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_exp2', False),
 ('special_expm1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_expm1', False),
 ('special_log1p.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_log1p', False),
 ('special_sinc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_sinc', False),
 ('special_logit.out(Tensor self, float? eps=None, *, Tensor(a!) out) -> Tensor(a!)', 'special_logit', False),
 ('special_round.out(Tensor self, *, int decimals=0, Tensor(a!) out) -> Tensor(a!)', 'special_round', False),
 ('special_xlogy.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', 'special_xlogy', False),
 ('special_xlogy.self_scalar_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)',
  'special_xlogy.self_scalar',
  False),
 ('special_xlogy.other_scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)',
  'special_xlogy.other_scalar',
  False),
 ('special_logsumexp.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)',
  'special_logsumexp',
  False),
 ('special_gammainc.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', 'special_gammainc', False),
 ('special_gammaincc.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', 'special_gammaincc', False),
 ('special_polygamma.out(int n, Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_polygamma', False),
 ('special_multigammaln.out(Tensor self, int p, *, Tensor(a!) out) -> Tensor(a!)', 'special_multigammaln', False),
 ('special_ndtr.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'special_ndtr', False),
 ('_fft_c2c.out(Tensor self, SymInt[] dim, int normalization, bool forward, *, Tensor(a!) out) -> Tensor(a!)',
  '_fft_c2c',
  False),
 ('_fft_r2c.out(Tensor self, int[] dim, int normalization, bool onesided, *, Tensor(a!) out) -> Tensor(a!)',
  '_fft_r2c',
  False),
 ('_fft_c2r.out(Tensor self, int[] dim, int normalization, SymInt last_dim_size, *, Tensor(a!) out) -> Tensor(a!)',
  '_fft_c2r',
  False),
 ('histc.out(Tensor self, int bins=100, Scalar min=0, Scalar max=0, *, Tensor(a!) out) -> Tensor(a!)', 'histc', True),
 ('logcumsumexp.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)', 'logcumsumexp', False),
 ('renorm.out(Tensor self, Scalar p, int dim, Scalar maxnorm, *, Tensor(a!) out) -> Tensor(a!)', 'renorm', False),
 ('msort.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', 'msort', False),
 ("quantile.out(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation='linear', Tensor(a!) "
  'out) -> Tensor(a!)',
  'quantile',
  True),
 ("quantile.scalar_out(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation='linear', "
  'Tensor(a!) out) -> Tensor(a!)',
  'quantile.scalar',
  True),
 ("nanquantile.out(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation='linear', "
  'Tensor(a!) out) -> Tensor(a!)',
  'nanquantile',
  True),
 ("nanquantile.scalar_out(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation='linear', "
  'Tensor(a!) out) -> Tensor(a!)',
  'nanquantile.scalar',
  True),
 ('chain_matmul.out(Tensor[] matrices, *, Tensor(a!) out) -> Tensor(a!)', 'chain_matmul', False))

# Every operator's qualified name (aten::name[.overload], no .default), in _aten.SCHEMAS order.
_QUALIFIED = """\
aten::_log_softmax
aten::_softmax
aten::_to_copy
aten::abs
aten::abs_
aten::add.Scalar
aten::add.Tensor
aten::add_.Scalar
aten::add_.Tensor
aten::alias
aten::all
aten::all.dim
aten::all.dims
aten::allclose
aten::amax
aten::amin
aten::aminmax
aten::any
aten::any.dim
aten::any.dims
aten::arange
aten::arange.start
aten::arange.start_step
aten::argmax
aten::argmin
aten::argsort
aten::argsort.stable
aten::argwhere
aten::as_strided
aten::bitwise_and.Scalar
aten::bitwise_and.Tensor
aten::bitwise_and_.Tensor
aten::bitwise_not
aten::bitwise_or.Scalar
aten::bitwise_or.Tensor
aten::bitwise_or_.Tensor
aten::bitwise_xor.Scalar
aten::bitwise_xor.Tensor
aten::bitwise_xor_.Tensor
aten::bmm
aten::bucketize.Scalar
aten::bucketize.Tensor
aten::cat
aten::ceil
aten::chunk
aten::clamp
aten::clamp.Tensor
aten::clamp_
aten::clamp_max
aten::clamp_min
aten::clone
aten::constant_pad_nd
aten::contiguous
aten::copy_
aten::cos
aten::cos_
aten::count_nonzero
aten::count_nonzero.dim_IntList
aten::cumprod
aten::cumsum
aten::detach
aten::diagonal
aten::diff
aten::div.Scalar
aten::div.Scalar_mode
aten::div.Tensor
aten::div.Tensor_mode
aten::div_.Scalar
aten::div_.Tensor
aten::div_.Tensor_mode
aten::div_.Scalar_mode
aten::dot
aten::dropout
aten::elu
aten::embedding
aten::empty.memory_format
aten::empty_like
aten::empty_strided
aten::eq.Scalar
aten::eq.Tensor
aten::erf
aten::exp
aten::exp2
aten::exp_
aten::expand
aten::expand_as
aten::expm1
aten::expm1_
aten::eye
aten::eye.m
aten::fill_.Scalar
aten::fill_.Tensor
aten::flatten.using_ints
aten::flip
aten::floor
aten::floor_divide
aten::floor_divide.Scalar
aten::floor_divide_.Tensor
aten::floor_divide_.Scalar
aten::fmod.Scalar
aten::fmod.Tensor
aten::full
aten::full_like
aten::gather
aten::ge.Scalar
aten::ge.Tensor
aten::gelu
aten::gt.Scalar
aten::gt.Tensor
aten::hardtanh
aten::index.Tensor
aten::index_put
aten::index_put_
aten::index_select
aten::isclose
aten::isfinite
aten::isinf
aten::isnan
aten::kthvalue
aten::layer_norm
aten::le.Scalar
aten::le.Tensor
aten::leaky_relu
aten::lerp.Scalar
aten::linear
aten::log
aten::log10
aten::log1p
aten::log2
aten::log_
aten::log_softmax.int
aten::logical_and
aten::logical_not
aten::logical_or
aten::logical_xor
aten::logsumexp
aten::lt.Scalar
aten::lt.Tensor
aten::masked_fill.Scalar
aten::masked_fill.Tensor
aten::masked_fill_.Scalar
aten::masked_fill_.Tensor
aten::masked_select
aten::matmul
aten::max
aten::max.dim
aten::max.other
aten::maximum
aten::mean
aten::mean.dim
aten::min
aten::min.dim
aten::min.other
aten::minimum
aten::mm
aten::movedim.int
aten::movedim.intlist
aten::mul.Scalar
aten::mul.Tensor
aten::mul_.Scalar
aten::mul_.Tensor
aten::mv
aten::narrow
aten::narrow.Tensor
aten::ne.Scalar
aten::ne.Tensor
aten::neg
aten::neg_
aten::new_empty
aten::new_empty_strided
aten::new_full
aten::new_ones
aten::new_zeros
aten::nonzero
aten::normal_
aten::numel
aten::one_hot
aten::ones
aten::ones_like
aten::outer
aten::pad
aten::permute
aten::pow.Scalar
aten::pow.Tensor_Scalar
aten::pow.Tensor_Tensor
aten::pow_.Scalar
aten::pow_.Tensor
aten::prod
aten::prod.dim_int
aten::rand
aten::rand_like
aten::randint
aten::randn
aten::randn_like
aten::reciprocal
aten::relu
aten::relu_
aten::remainder.Scalar
aten::remainder.Tensor
aten::remainder_.Tensor
aten::remainder_.Scalar
aten::remainder.Scalar_Tensor
aten::repeat
aten::repeat_interleave.Tensor
aten::repeat_interleave.self_Tensor
aten::repeat_interleave.self_int
aten::reshape
aten::rms_norm
aten::round
aten::round.decimals
aten::rsqrt
aten::rsub.Scalar
aten::rsub.Tensor
aten::scaled_dot_product_attention
aten::scatter.src
aten::scatter.value
aten::scatter_.src
aten::scatter_.value
aten::scatter.reduce
aten::scatter.value_reduce
aten::scatter_.reduce
aten::scatter_.value_reduce
aten::scatter_add
aten::searchsorted.Scalar
aten::searchsorted.Tensor
aten::select.int
aten::sigmoid
aten::sigmoid_
aten::sign
aten::sign_
aten::silu
aten::sin
aten::sin_
aten::slice.Tensor
aten::softmax.int
aten::softplus
aten::sort
aten::sort.stable
aten::split.Tensor
aten::split.sizes
aten::split_with_sizes
aten::sqrt
aten::sqrt_
aten::square
aten::squeeze
aten::squeeze.dim
aten::squeeze.dims
aten::stack
aten::std.correction
aten::sub.Scalar
aten::sub.Tensor
aten::sub_.Scalar
aten::sub_.Tensor
aten::sum
aten::sum.dim_IntList
aten::t
aten::tan
aten::tanh
aten::tanh_
aten::topk
aten::transpose.int
aten::tril
aten::triu
aten::trunc
aten::unbind.int
aten::unflatten.int
aten::uniform_
aten::unsqueeze
aten::var.correction
aten::view
aten::view.dtype
aten::view_as
aten::where.ScalarOther
aten::where.ScalarSelf
aten::where.self
aten::zero_
aten::zeros
aten::zeros_like
aten::celu
aten::celu_
aten::selu
aten::selu_
aten::elu_
aten::glu
aten::hardshrink
aten::softshrink
aten::hardsigmoid
aten::hardsigmoid_
aten::hardswish
aten::hardswish_
aten::log_sigmoid
aten::log_sigmoid_forward
aten::mish
aten::mish_
aten::prelu
aten::_prelu_kernel
aten::rrelu
aten::rrelu_
aten::rrelu_with_noise
aten::rrelu_with_noise_
aten::threshold
aten::threshold_
aten::affine_grid_generator
aten::arccos
aten::arccos_
aten::arccosh
aten::arccosh_
aten::arcsin
aten::arcsin_
aten::arcsinh
aten::arcsinh_
aten::arctan
aten::arctan_
aten::arctanh
aten::arctanh_
aten::arctan2
aten::arctan2_
aten::fix
aten::fix_
aten::greater.Tensor
aten::greater.Scalar
aten::greater_.Tensor
aten::greater_.Scalar
aten::greater_equal.Tensor
aten::greater_equal.Scalar
aten::greater_equal_.Tensor
aten::greater_equal_.Scalar
aten::less.Tensor
aten::less.Scalar
aten::less_.Tensor
aten::less_.Scalar
aten::less_equal.Tensor
aten::less_equal.Scalar
aten::less_equal_.Tensor
aten::less_equal_.Scalar
aten::not_equal.Tensor
aten::not_equal.Scalar
aten::not_equal_.Tensor
aten::not_equal_.Scalar
aten::clip
aten::clip_
aten::clip.Tensor
aten::clip_.Tensor
aten::moveaxis.int
aten::moveaxis.intlist
aten::swapaxes
aten::swapaxes_
aten::swapdims
aten::swapdims_
aten::row_stack
aten::ger
aten::_safe_softmax
aten::_softmax_backward_data
aten::_log_softmax_backward_data
aten::_scaled_dot_product_flash_attention_for_cpu
aten::_scaled_dot_product_flash_attention_for_cpu_backward
aten::_scaled_dot_product_attention_math
aten::complex
aten::polar
aten::isreal
aten::adjoint
aten::view_as_real
aten::view_as_complex
aten::real
aten::imag
aten::_conj
aten::conj
aten::_conj_physical
aten::conj_physical
aten::conj_physical_
aten::resolve_conj
aten::resolve_neg
aten::angle
aten::convolution
aten::convolution_backward
aten::_convolution
aten::_convolution.deprecated
aten::_convolution_mode
aten::conv1d
aten::conv2d
aten::conv3d
aten::conv1d.padding
aten::conv2d.padding
aten::conv3d.padding
aten::conv_transpose1d
aten::conv_transpose2d.input
aten::conv_transpose3d.input
aten::im2col
aten::col2im
aten::pixel_shuffle
aten::pixel_unshuffle
aten::channel_shuffle
aten::native_channel_shuffle
aten::_ctc_loss
aten::_ctc_loss.Tensor
aten::_ctc_loss_backward
aten::_ctc_loss_backward.Tensor
aten::ctc_loss.IntList
aten::ctc_loss.Tensor
aten::cdist
aten::_cdist_forward
aten::_euclidean_dist
aten::pdist
aten::_pdist_forward
aten::cosine_similarity
aten::bilinear
aten::_trilinear
aten::embedding_bag
aten::embedding_bag.padding_idx
aten::_embedding_bag
aten::_embedding_bag_forward_only
aten::_embedding_bag_backward
aten::_embedding_bag_dense_backward
aten::_embedding_bag_per_sample_weights_backward
aten::embedding_renorm_
aten::dropout_
aten::feature_dropout
aten::feature_dropout_
aten::alpha_dropout
aten::alpha_dropout_
aten::feature_alpha_dropout
aten::feature_alpha_dropout_
aten::native_dropout
aten::native_dropout_backward
aten::einsum
aten::bitwise_left_shift.Tensor
aten::bitwise_left_shift.Tensor_Scalar
aten::bitwise_right_shift.Tensor
aten::bitwise_right_shift.Tensor_Scalar
aten::index_add
aten::index_add_
aten::scatter_add_
aten::roll
aten::nan_to_num
aten::isin.Tensor_Tensor
aten::norm.Scalar
aten::norm.ScalarOpt_dim
aten::var.dim
aten::std.dim
aten::var
aten::std
aten::tile
aten::equal
aten::_local_scalar_dense
aten::copy
aten::fill.Scalar
aten::fill.Tensor
aten::rand.generator
aten::randn.generator
aten::randint.generator
aten::randint.low
aten::randint.low_generator
aten::rand_like.generator
aten::randn_like.generator
aten::poisson
aten::binomial
aten::index_copy
aten::index_copy_
aten::index_fill.int_Scalar
aten::index_fill.int_Tensor
aten::index_fill_.int_Scalar
aten::index_fill_.int_Tensor
aten::scatter_reduce.two
aten::scatter_reduce_.two
aten::take
aten::take_along_dim
aten::unfold
aten::tensor_split.sections
aten::tensor_split.indices
aten::tensor_split.tensor_indices_or_sections
aten::detach_
aten::index_reduce
aten::index_reduce_
aten::leaky_relu_
aten::hardtanh_
aten::silu_
aten::eq_.Tensor
aten::eq_.Scalar
aten::ne_.Tensor
aten::ne_.Scalar
aten::lt_.Tensor
aten::lt_.Scalar
aten::le_.Tensor
aten::le_.Scalar
aten::gt_.Tensor
aten::gt_.Scalar
aten::ge_.Tensor
aten::ge_.Scalar
aten::bitwise_and_.Scalar
aten::bitwise_or_.Scalar
aten::bitwise_xor_.Scalar
aten::logical_and_
aten::logical_or_
aten::logical_xor_
aten::logical_not_
aten::bitwise_not_
aten::bitwise_left_shift_.Tensor
aten::bitwise_left_shift_.Tensor_Scalar
aten::bitwise_right_shift_.Tensor
aten::bitwise_right_shift_.Tensor_Scalar
aten::atleast_1d
aten::atleast_1d.Sequence
aten::atleast_2d
aten::atleast_2d.Sequence
aten::atleast_3d
aten::atleast_3d.Sequence
aten::hstack
aten::vstack
aten::dstack
aten::column_stack
aten::hsplit.int
aten::hsplit.array
aten::vsplit.int
aten::vsplit.array
aten::dsplit.int
aten::dsplit.array
aten::unsafe_split.Tensor
aten::unsafe_split_with_sizes
aten::unsafe_chunk
aten::broadcast_to
aten::broadcast_tensors
aten::meshgrid
aten::meshgrid.indexing
aten::cartesian_prod
aten::combinations
aten::block_diag
aten::diag_embed
aten::diag
aten::diagflat
aten::fliplr
aten::flipud
aten::rot90
aten::ravel
aten::reshape_as
aten::sum_to_size
aten::alias_copy
aten::as_strided_copy
aten::diagonal_copy
aten::expand_copy
aten::narrow_copy
aten::permute_copy
aten::select_copy.int
aten::slice_copy.Tensor
aten::squeeze_copy
aten::squeeze_copy.dim
aten::squeeze_copy.dims
aten::t_copy
aten::transpose_copy.int
aten::unsqueeze_copy
aten::unfold_copy
aten::view_copy
aten::view_copy.dtype
aten::detach_copy
aten::split_copy.Tensor
aten::split_with_sizes_copy
aten::unbind_copy.int
aten::slice_scatter
aten::select_scatter
aten::diagonal_scatter
aten::as_strided_scatter
aten::tril_indices
aten::triu_indices
aten::empty_permuted
aten::linalg_cholesky
aten::linalg_inv
aten::linalg_solve_ex
aten::linalg_solve
aten::linalg_det
aten::linalg_slogdet
aten::slogdet
aten::logdet
aten::linalg_eigh
aten::linalg_eigvalsh
aten::linalg_eigvals
aten::linalg_svd
aten::linalg_svdvals
aten::svd
aten::linalg_lu_factor
aten::_lu_with_info
aten::lu_solve
aten::linalg_ldl_factor
aten::matrix_exp
aten::orgqr
aten::linalg_pinv.atol_rtol_float
aten::linalg_pinv
aten::linalg_pinv.rcond_tensor
aten::pinverse
aten::linalg_matrix_rank.atol_rtol_tensor
aten::linalg_matrix_rank.atol_rtol_float
aten::linalg_matrix_rank
aten::linalg_matrix_rank.tol_tensor
aten::linalg_cond
aten::linalg_cond.p_str
aten::linalg_diagonal
aten::linalg_multi_dot
aten::linalg_tensorinv
aten::linalg_tensorsolve
aten::linalg_vander
aten::linalg_vecdot
aten::linalg_cholesky_ex
aten::linalg_lu_factor_ex
aten::linalg_lu
aten::lu_unpack
aten::linalg_lu_solve
aten::linalg_inv_ex
aten::_linalg_solve_ex
aten::_linalg_det
aten::_linalg_slogdet
aten::linalg_solve_triangular
aten::triangular_solve
aten::cholesky_solve
aten::cholesky_inverse
aten::linalg_ldl_factor_ex
aten::linalg_ldl_solve
aten::trace
aten::det
aten::inverse
aten::cholesky
aten::linalg_qr
aten::linalg_cross
aten::cross
aten::kron
aten::matrix_power
aten::linalg_matrix_power
aten::_linalg_eigh
aten::linalg_eig
aten::_linalg_eigvals
aten::_linalg_svd
aten::linalg_polar
aten::linalg_matrix_sqrth
aten::linalg_matrix_exp
aten::linalg_pinv.atol_rtol_tensor
aten::linalg_lstsq
aten::geqrf
aten::linalg_householder_product
aten::ormqr
aten::logspace
aten::logspace.out
aten::logspace.Tensor_Tensor
aten::logspace.Tensor_Tensor_out
aten::logspace.Tensor_Scalar
aten::logspace.Tensor_Scalar_out
aten::logspace.Scalar_Tensor
aten::logspace.Scalar_Tensor_out
aten::linspace
aten::linspace.Tensor_Tensor
aten::linspace.Tensor_Scalar
aten::linspace.Scalar_Tensor
aten::binary_cross_entropy
aten::binary_cross_entropy_with_logits
aten::nll_loss_forward
aten::nll_loss2d_forward
aten::nll_loss
aten::nll_loss2d
aten::nll_loss_nd
aten::cross_entropy_loss
aten::kl_div
aten::l1_loss
aten::smooth_l1_loss
aten::mse_loss
aten::huber_loss
aten::soft_margin_loss
aten::poisson_nll_loss
aten::hinge_embedding_loss
aten::margin_ranking_loss
aten::cosine_embedding_loss
aten::multi_margin_loss
aten::multilabel_margin_loss
aten::multilabel_margin_loss_forward
aten::triplet_margin_loss
aten::pairwise_distance
aten::atan2
aten::atan2_
aten::hypot
aten::hypot_
aten::logaddexp
aten::copysign.Tensor
aten::copysign.Scalar
aten::copysign_.Tensor
aten::copysign_.Scalar
aten::heaviside
aten::heaviside_
aten::sinc
aten::sinc_
aten::xlogy.Tensor
aten::xlogy.Scalar_Self
aten::xlogy.Scalar_Other
aten::xlogy_.Tensor
aten::xlogy_.Scalar_Other
aten::frac
aten::frac_
aten::sgn
aten::sgn_
aten::lerp.Tensor
aten::lerp_.Scalar
aten::lerp_.Tensor
aten::trunc_
aten::floor_
aten::ceil_
aten::round_
aten::round_.decimals
aten::reciprocal_
aten::rsqrt_
aten::square_
aten::log2_
aten::log10_
aten::log1p_
aten::tan_
aten::erf_
aten::clamp_min_
aten::exp2_
aten::fmod_.Scalar
aten::fmod_.Tensor
aten::tril_
aten::triu_
aten::clamp_max_
aten::nan_to_num_
aten::logaddexp2
aten::gelu_backward
aten::silu_backward
aten::native_batch_norm
aten::_native_batch_norm_legit
aten::_native_batch_norm_legit.no_stats
aten::_native_batch_norm_legit_no_training
aten::_batch_norm_with_update
aten::_batch_norm_no_update
aten::batch_norm
aten::instance_norm
aten::native_group_norm
aten::group_norm
aten::native_layer_norm
aten::native_layer_norm_backward
aten::linalg_vector_norm
aten::linalg_matrix_norm
aten::linalg_matrix_norm.str_ord
aten::linalg_norm
aten::linalg_norm.ord_str
aten::gcd
aten::gcd_
aten::lcm
aten::lcm_
aten::ldexp.Tensor
aten::ldexp_
aten::frexp.Tensor
aten::nextafter
aten::nextafter_
aten::float_power.Tensor_Tensor
aten::float_power.Tensor_Scalar
aten::float_power.Scalar
aten::float_power_.Scalar
aten::float_power_.Tensor
aten::positive
aten::put
aten::put_
aten::masked_scatter
aten::masked_scatter_
aten::masked_scatter_backward
aten::_unsafe_masked_index
aten::_unsafe_masked_index_put_accumulate
aten::nonzero_static
aten::_chunk_cat
aten::hash_tensor
aten::clamp_min.Tensor
aten::clamp_min_.Tensor
aten::clamp_max.Tensor
aten::clamp_max_.Tensor
aten::clamp_.Tensor
aten::max_pool1d_with_indices
aten::max_pool1d
aten::max_pool2d
aten::max_pool3d
aten::max_pool2d_with_indices
aten::max_pool3d_with_indices
aten::max_pool2d_with_indices_backward
aten::max_pool3d_with_indices_backward
aten::avg_pool1d
aten::avg_pool2d
aten::avg_pool3d
aten::avg_pool2d_backward
aten::avg_pool3d_backward
aten::adaptive_avg_pool1d
aten::adaptive_avg_pool2d
aten::adaptive_avg_pool3d
aten::_adaptive_avg_pool2d
aten::_adaptive_avg_pool3d
aten::_adaptive_avg_pool2d_backward
aten::_adaptive_avg_pool3d_backward
aten::adaptive_max_pool1d
aten::adaptive_max_pool2d
aten::adaptive_max_pool3d
aten::adaptive_max_pool2d_backward
aten::adaptive_max_pool3d_backward
aten::fractional_max_pool2d
aten::fractional_max_pool3d
aten::fractional_max_pool2d_backward
aten::fractional_max_pool3d_backward
aten::max_unpool2d
aten::max_unpool3d
aten::vdot
aten::tensordot
aten::inner
aten::cauchy_
aten::exponential_
aten::log_normal_
aten::geometric_
aten::bernoulli
aten::bernoulli.p
aten::bernoulli_.Tensor
aten::bernoulli_.float
aten::random_.from
aten::random_.to
aten::random_
aten::randint_like
aten::randint_like.generator
aten::randint_like.Tensor
aten::randint_like.Tensor_generator
aten::randint_like.low_dtype
aten::randint_like.low_generator_dtype
aten::multinomial
aten::multinomial.out
aten::normal.Tensor_float
aten::normal.float_Tensor
aten::normal.Tensor_Tensor
aten::normal.float_float
aten::normal.float_float_out
aten::nansum
aten::nanmean
aten::cummax
aten::cummin
aten::median
aten::median.dim
aten::mode
aten::var_mean.correction
aten::var_mean.dim
aten::var_mean
aten::std_mean.correction
aten::std_mean.dim
aten::std_mean
aten::cumprod_
aten::cumsum_
aten::resize_
aten::resize_as_
aten::upsample_nearest1d
aten::upsample_nearest1d.vec
aten::upsample_nearest2d
aten::upsample_nearest2d.vec
aten::upsample_nearest3d
aten::upsample_nearest3d.vec
aten::_upsample_nearest_exact1d
aten::_upsample_nearest_exact1d.vec
aten::_upsample_nearest_exact2d
aten::_upsample_nearest_exact2d.vec
aten::_upsample_nearest_exact3d
aten::_upsample_nearest_exact3d.vec
aten::upsample_linear1d
aten::upsample_linear1d.vec
aten::upsample_bilinear2d
aten::upsample_bilinear2d.vec
aten::upsample_trilinear3d
aten::upsample_trilinear3d.vec
aten::upsample_bicubic2d
aten::upsample_bicubic2d.vec
aten::_upsample_bilinear2d_aa
aten::_upsample_bilinear2d_aa.vec
aten::_upsample_bicubic2d_aa
aten::_upsample_bicubic2d_aa.vec
aten::upsample_nearest1d_backward
aten::upsample_nearest2d_backward
aten::upsample_nearest3d_backward
aten::_upsample_nearest_exact1d_backward
aten::_upsample_nearest_exact2d_backward
aten::_upsample_nearest_exact3d_backward
aten::upsample_linear1d_backward
aten::upsample_bilinear2d_backward
aten::upsample_trilinear3d_backward
aten::upsample_bicubic2d_backward
aten::_upsample_bilinear2d_aa_backward
aten::_upsample_bicubic2d_aa_backward
aten::grid_sampler
aten::grid_sampler_2d
aten::grid_sampler_3d
aten::grid_sampler_2d_backward
aten::grid_sampler_3d_backward
aten::scalar_tensor
aten::addmm
aten::addmv
aten::addr
aten::addr_
aten::addbmm
aten::baddbmm
aten::addcmul
aten::addcmul_
aten::addcdiv
aten::addcdiv_
aten::addmm_
aten::addmv_
aten::addbmm_
aten::baddbmm_
aten::digamma
aten::digamma_
aten::lgamma
aten::lgamma_
aten::erfc
aten::erfc_
aten::erfinv
aten::erfinv_
aten::i0
aten::i0_
aten::special_i0e
aten::special_i1
aten::special_i1e
aten::special_entr
aten::special_erfcx
aten::special_ndtri
aten::special_log_ndtr
aten::special_airy_ai
aten::special_bessel_j0
aten::special_bessel_j1
aten::special_bessel_y0
aten::special_bessel_y1
aten::special_modified_bessel_i0
aten::special_modified_bessel_i1
aten::special_modified_bessel_k0
aten::special_modified_bessel_k1
aten::special_scaled_modified_bessel_k0
aten::special_scaled_modified_bessel_k1
aten::special_spherical_bessel_j0
aten::polygamma
aten::polygamma_
aten::mvlgamma
aten::mvlgamma_
aten::igamma
aten::igamma_
aten::igammac
aten::igammac_
aten::special_xlog1py
aten::special_xlog1py.self_scalar
aten::special_xlog1py.other_scalar
aten::special_zeta
aten::special_zeta.self_scalar
aten::special_zeta.other_scalar
aten::special_chebyshev_polynomial_t
aten::special_chebyshev_polynomial_t.x_scalar
aten::special_chebyshev_polynomial_t.n_scalar
aten::special_chebyshev_polynomial_u
aten::special_chebyshev_polynomial_u.x_scalar
aten::special_chebyshev_polynomial_u.n_scalar
aten::special_chebyshev_polynomial_v
aten::special_chebyshev_polynomial_v.x_scalar
aten::special_chebyshev_polynomial_v.n_scalar
aten::special_chebyshev_polynomial_w
aten::special_chebyshev_polynomial_w.x_scalar
aten::special_chebyshev_polynomial_w.n_scalar
aten::special_shifted_chebyshev_polynomial_t
aten::special_shifted_chebyshev_polynomial_t.x_scalar
aten::special_shifted_chebyshev_polynomial_t.n_scalar
aten::special_shifted_chebyshev_polynomial_u
aten::special_shifted_chebyshev_polynomial_u.x_scalar
aten::special_shifted_chebyshev_polynomial_u.n_scalar
aten::special_shifted_chebyshev_polynomial_v
aten::special_shifted_chebyshev_polynomial_v.x_scalar
aten::special_shifted_chebyshev_polynomial_v.n_scalar
aten::special_shifted_chebyshev_polynomial_w
aten::special_shifted_chebyshev_polynomial_w.x_scalar
aten::special_shifted_chebyshev_polynomial_w.n_scalar
aten::special_hermite_polynomial_h
aten::special_hermite_polynomial_h.x_scalar
aten::special_hermite_polynomial_h.n_scalar
aten::special_hermite_polynomial_he
aten::special_hermite_polynomial_he.x_scalar
aten::special_hermite_polynomial_he.n_scalar
aten::special_laguerre_polynomial_l
aten::special_laguerre_polynomial_l.x_scalar
aten::special_laguerre_polynomial_l.n_scalar
aten::special_legendre_polynomial_p
aten::special_legendre_polynomial_p.x_scalar
aten::special_legendre_polynomial_p.n_scalar
aten::special_psi
aten::special_digamma
aten::special_gammaln
aten::special_erf
aten::special_erfc
aten::special_erfinv
aten::special_i0
aten::special_expit
aten::special_exp2
aten::special_expm1
aten::special_log1p
aten::special_sinc
aten::special_logit
aten::special_round
aten::special_xlogy
aten::special_xlogy.self_scalar
aten::special_xlogy.other_scalar
aten::special_log_softmax
aten::special_softmax
aten::special_logsumexp
aten::special_gammainc
aten::special_gammaincc
aten::special_polygamma
aten::special_multigammaln
aten::special_ndtr
aten::_fft_c2c
aten::_fft_r2c
aten::_fft_c2r
aten::fft_fft
aten::fft_ifft
aten::fft_rfft
aten::fft_irfft
aten::fft_hfft
aten::fft_ihfft
aten::fft_fft2
aten::fft_ifft2
aten::fft_rfft2
aten::fft_irfft2
aten::fft_hfft2
aten::fft_ihfft2
aten::fft_fftn
aten::fft_ifftn
aten::fft_rfftn
aten::fft_irfftn
aten::fft_hfftn
aten::fft_ihfftn
aten::fft_fftshift
aten::fft_ifftshift
aten::unfold_backward
aten::stft
aten::stft.center
aten::istft
aten::_unique2
aten::_unique
aten::unique_dim
aten::unique_dim_consecutive
aten::unique_consecutive
aten::bincount
aten::_histogramdd_bin_edges
aten::_histogramdd_from_bin_cts
aten::_histogramdd_from_bin_tensors
aten::histogramdd
aten::histogramdd.int_bins
aten::histogramdd.TensorList_bins
aten::histogram.bins_tensor
aten::histogram.bin_ct
aten::histc
aten::nanmedian
aten::nanmedian.dim
aten::_logcumsumexp
aten::logcumsumexp
aten::renorm
aten::renorm_
aten::dist
aten::segment_reduce
aten::_segment_reduce_backward
aten::msort
aten::trapezoid.x
aten::trapezoid.dx
aten::trapz.x
aten::trapz.dx
aten::cumulative_trapezoid.x
aten::cumulative_trapezoid.dx
aten::cov
aten::corrcoef
aten::quantile
aten::quantile.scalar
aten::nanquantile
aten::nanquantile.scalar
aten::gradient.tensorarrayint
aten::gradient.tensorarray
aten::gradient.scalarint
aten::gradient.scalararray
aten::gradient.array
aten::gradient.scalarrayint
aten::gradient.scalarrayarray
aten::is_nonzero
aten::is_same_size
aten::is_signed
aten::is_pinned
aten::pin_memory
aten::range.step
aten::range
aten::vander
aten::chain_matmul
aten::frobenius_norm.dim
aten::nuclear_norm
aten::nuclear_norm.dim
aten::negative_
aten::fill_diagonal_
aten::slice_inverse
aten::asin
aten::acos
aten::atan
aten::sinh
aten::cosh
aten::asinh
aten::acosh
aten::atanh
aten::deg2rad
aten::rad2deg
aten::asin_
aten::acos_
aten::atan_
aten::sinh_
aten::cosh_
aten::asinh_
aten::acosh_
aten::atanh_
aten::deg2rad_
aten::rad2deg_
aten::logit
aten::logit_
aten::signbit
aten::fmax
aten::fmin
aten::isposinf
aten::isneginf
aten::_unsafe_view
aten::hann_window
aten::hann_window.periodic
aten::hamming_window
aten::hamming_window.periodic
aten::blackman_window
aten::blackman_window.periodic
aten::bartlett_window
aten::bartlett_window.periodic
aten::kaiser_window
aten::kaiser_window.periodic
aten::hamming_window.periodic_alpha
aten::hamming_window.periodic_alpha_beta
aten::kaiser_window.beta
aten::randperm
aten::randperm.generator
aten::mm.out
aten::bmm.out
aten::matmul.out
aten::add.out
aten::sub.out
aten::mul.out
aten::div.out
aten::maximum.out
aten::minimum.out
aten::pow.Tensor_Scalar_out
aten::clamp.out
aten::where.self_out
aten::exp.out
aten::neg.out
aten::abs.out
aten::sqrt.out
aten::rsqrt.out
aten::sigmoid.out
aten::tanh.out
aten::floor.out
aten::round.out
aten::eq.Tensor_out
aten::lt.Tensor_out
aten::sum.IntList_out
aten::mean.out
aten::amax.out
aten::argmax.out
aten::cumsum.out
aten::softmax.int_out
aten::cat.out
aten::stack.out
aten::sgn.out
aten::copysign.out
aten::ceil.out
aten::clamp_max.out
aten::clamp_min.out
aten::cos.out
aten::cumprod.out
aten::frac.out
aten::index_copy.out
aten::kron.out
aten::nan_to_num.out
aten::log.out
aten::logaddexp.out
aten::xlogy.OutTensor
aten::logsumexp.out
aten::matrix_power.out
aten::nanmean.out
aten::sin.out
aten::sinc.out
aten::nansum.out
aten::prod.int_out
aten::trunc.out
aten::heaviside.out
aten::scatter_reduce.two_out
aten::cross.out
aten::triu.out
aten::tril.out
aten::take.out
aten::take_along_dim.out
aten::index_select.out
aten::gather.out
aten::sign.out
aten::atan2.out
aten::lerp.Scalar_out
aten::lerp.Tensor_out
aten::hypot.out
aten::linalg_cholesky.out
aten::linalg_cross.out
aten::linalg_det.out
aten::linalg_inv.out
aten::outer.out
aten::linalg_solve.out
aten::argmin.out
aten::erf.out
aten::exp2.out
aten::expm1.out
aten::log10.out
aten::log1p.out
aten::log2.out
aten::amin.out
aten::reciprocal.out
aten::square.out
aten::std.correction_out
aten::tan.out
aten::var.correction_out
aten::norm.out
aten::scatter.src_out
aten::scatter.value_out
aten::scatter_add.out
aten::cholesky.out
aten::fmod.Scalar_out
aten::fmod.Tensor_out
aten::remainder.Tensor_out
aten::max.out
aten::min.out
aten::max.unary_out
aten::min.unary_out
aten::argsort.stable_out
aten::inverse.out
aten::linalg_vector_norm.out
aten::linalg_matrix_power.out
aten::asin.out
aten::acos.out
aten::atan.out
aten::sinh.out
aten::cosh.out
aten::asinh.out
aten::acosh.out
aten::atanh.out
aten::deg2rad.out
aten::rad2deg.out
aten::logit.out
aten::signbit.out
aten::fmax.out
aten::fmin.out
aten::isposinf.out
aten::isneginf.out
aten::cummax.out
aten::cummin.out
aten::kthvalue.values
aten::aminmax.out
aten::max.dim_max
aten::min.dim_min
aten::median.dim_values
aten::nanmedian.dim_values
aten::histogram.bins_tensor_out
aten::histogram.bin_ct_out
aten::mode.values
aten::sort.values
aten::topk.values
aten::linalg_qr.out
aten::linalg_svd.U
aten::linalg_eigh.eigvals
aten::complex.out
aten::polar.out
aten::conj_physical.out
aten::angle.out
aten::poisson.out
aten::binomial.out
aten::index_reduce.out
aten::hstack.out
aten::vstack.out
aten::dstack.out
aten::column_stack.out
aten::diag.out
aten::logaddexp2.out
aten::gcd.out
aten::lcm.out
aten::ldexp.out
aten::nextafter.out
aten::float_power.Tensor_Tensor_out
aten::float_power.Tensor_Scalar_out
aten::float_power.Scalar_out
aten::nonzero_static.out
aten::_chunk_cat.out
aten::hash_tensor.out
aten::clamp_min.Tensor_out
aten::clamp_max.Tensor_out
aten::vdot.out
aten::inner.out
aten::bernoulli.out
aten::normal.Tensor_float_out
aten::normal.float_Tensor_out
aten::normal.Tensor_Tensor_out
aten::addmm.out
aten::addmv.out
aten::addr.out
aten::addbmm.out
aten::baddbmm.out
aten::addcmul.out
aten::addcdiv.out
aten::digamma.out
aten::lgamma.out
aten::erfc.out
aten::erfinv.out
aten::i0.out
aten::special_i0e.out
aten::special_i1.out
aten::special_i1e.out
aten::special_entr.out
aten::special_erfcx.out
aten::special_ndtri.out
aten::special_log_ndtr.out
aten::special_airy_ai.out
aten::special_bessel_j0.out
aten::special_bessel_j1.out
aten::special_bessel_y0.out
aten::special_bessel_y1.out
aten::special_modified_bessel_i0.out
aten::special_modified_bessel_i1.out
aten::special_modified_bessel_k0.out
aten::special_modified_bessel_k1.out
aten::special_scaled_modified_bessel_k0.out
aten::special_scaled_modified_bessel_k1.out
aten::special_spherical_bessel_j0.out
aten::polygamma.out
aten::mvlgamma.out
aten::igamma.out
aten::igammac.out
aten::special_xlog1py.out
aten::special_xlog1py.self_scalar_out
aten::special_xlog1py.other_scalar_out
aten::special_zeta.out
aten::special_zeta.self_scalar_out
aten::special_zeta.other_scalar_out
aten::special_chebyshev_polynomial_t.out
aten::special_chebyshev_polynomial_t.x_scalar_out
aten::special_chebyshev_polynomial_t.n_scalar_out
aten::special_chebyshev_polynomial_u.out
aten::special_chebyshev_polynomial_u.x_scalar_out
aten::special_chebyshev_polynomial_u.n_scalar_out
aten::special_chebyshev_polynomial_v.out
aten::special_chebyshev_polynomial_v.x_scalar_out
aten::special_chebyshev_polynomial_v.n_scalar_out
aten::special_chebyshev_polynomial_w.out
aten::special_chebyshev_polynomial_w.x_scalar_out
aten::special_chebyshev_polynomial_w.n_scalar_out
aten::special_shifted_chebyshev_polynomial_t.out
aten::special_shifted_chebyshev_polynomial_t.x_scalar_out
aten::special_shifted_chebyshev_polynomial_t.n_scalar_out
aten::special_shifted_chebyshev_polynomial_u.out
aten::special_shifted_chebyshev_polynomial_u.x_scalar_out
aten::special_shifted_chebyshev_polynomial_u.n_scalar_out
aten::special_shifted_chebyshev_polynomial_v.out
aten::special_shifted_chebyshev_polynomial_v.x_scalar_out
aten::special_shifted_chebyshev_polynomial_v.n_scalar_out
aten::special_shifted_chebyshev_polynomial_w.out
aten::special_shifted_chebyshev_polynomial_w.x_scalar_out
aten::special_shifted_chebyshev_polynomial_w.n_scalar_out
aten::special_hermite_polynomial_h.out
aten::special_hermite_polynomial_h.x_scalar_out
aten::special_hermite_polynomial_h.n_scalar_out
aten::special_hermite_polynomial_he.out
aten::special_hermite_polynomial_he.x_scalar_out
aten::special_hermite_polynomial_he.n_scalar_out
aten::special_laguerre_polynomial_l.out
aten::special_laguerre_polynomial_l.x_scalar_out
aten::special_laguerre_polynomial_l.n_scalar_out
aten::special_legendre_polynomial_p.out
aten::special_legendre_polynomial_p.x_scalar_out
aten::special_legendre_polynomial_p.n_scalar_out
aten::special_psi.out
aten::special_digamma.out
aten::special_gammaln.out
aten::special_erf.out
aten::special_erfc.out
aten::special_erfinv.out
aten::special_i0.out
aten::special_expit.out
aten::special_exp2.out
aten::special_expm1.out
aten::special_log1p.out
aten::special_sinc.out
aten::special_logit.out
aten::special_round.out
aten::special_xlogy.out
aten::special_xlogy.self_scalar_out
aten::special_xlogy.other_scalar_out
aten::special_logsumexp.out
aten::special_gammainc.out
aten::special_gammaincc.out
aten::special_polygamma.out
aten::special_multigammaln.out
aten::special_ndtr.out
aten::_fft_c2c.out
aten::_fft_r2c.out
aten::_fft_c2r.out
aten::histc.out
aten::logcumsumexp.out
aten::renorm.out
aten::msort.out
aten::quantile.out
aten::quantile.scalar_out
aten::nanquantile.out
aten::nanquantile.scalar_out
aten::chain_matmul.out"""

# The packets, in order of first appearance in _aten.SCHEMAS (PACKETS' keys).
_PACKET_NAMES = """\
aten::_log_softmax
aten::_softmax
aten::_to_copy
aten::abs
aten::abs_
aten::add
aten::add_
aten::alias
aten::all
aten::allclose
aten::amax
aten::amin
aten::aminmax
aten::any
aten::arange
aten::argmax
aten::argmin
aten::argsort
aten::argwhere
aten::as_strided
aten::bitwise_and
aten::bitwise_and_
aten::bitwise_not
aten::bitwise_or
aten::bitwise_or_
aten::bitwise_xor
aten::bitwise_xor_
aten::bmm
aten::bucketize
aten::cat
aten::ceil
aten::chunk
aten::clamp
aten::clamp_
aten::clamp_max
aten::clamp_min
aten::clone
aten::constant_pad_nd
aten::contiguous
aten::copy_
aten::cos
aten::cos_
aten::count_nonzero
aten::cumprod
aten::cumsum
aten::detach
aten::diagonal
aten::diff
aten::div
aten::div_
aten::dot
aten::dropout
aten::elu
aten::embedding
aten::empty
aten::empty_like
aten::empty_strided
aten::eq
aten::erf
aten::exp
aten::exp2
aten::exp_
aten::expand
aten::expand_as
aten::expm1
aten::expm1_
aten::eye
aten::fill_
aten::flatten
aten::flip
aten::floor
aten::floor_divide
aten::floor_divide_
aten::fmod
aten::full
aten::full_like
aten::gather
aten::ge
aten::gelu
aten::gt
aten::hardtanh
aten::index
aten::index_put
aten::index_put_
aten::index_select
aten::isclose
aten::isfinite
aten::isinf
aten::isnan
aten::kthvalue
aten::layer_norm
aten::le
aten::leaky_relu
aten::lerp
aten::linear
aten::log
aten::log10
aten::log1p
aten::log2
aten::log_
aten::log_softmax
aten::logical_and
aten::logical_not
aten::logical_or
aten::logical_xor
aten::logsumexp
aten::lt
aten::masked_fill
aten::masked_fill_
aten::masked_select
aten::matmul
aten::max
aten::maximum
aten::mean
aten::min
aten::minimum
aten::mm
aten::movedim
aten::mul
aten::mul_
aten::mv
aten::narrow
aten::ne
aten::neg
aten::neg_
aten::new_empty
aten::new_empty_strided
aten::new_full
aten::new_ones
aten::new_zeros
aten::nonzero
aten::normal_
aten::numel
aten::one_hot
aten::ones
aten::ones_like
aten::outer
aten::pad
aten::permute
aten::pow
aten::pow_
aten::prod
aten::rand
aten::rand_like
aten::randint
aten::randn
aten::randn_like
aten::reciprocal
aten::relu
aten::relu_
aten::remainder
aten::remainder_
aten::repeat
aten::repeat_interleave
aten::reshape
aten::rms_norm
aten::round
aten::rsqrt
aten::rsub
aten::scaled_dot_product_attention
aten::scatter
aten::scatter_
aten::scatter_add
aten::searchsorted
aten::select
aten::sigmoid
aten::sigmoid_
aten::sign
aten::sign_
aten::silu
aten::sin
aten::sin_
aten::slice
aten::softmax
aten::softplus
aten::sort
aten::split
aten::split_with_sizes
aten::sqrt
aten::sqrt_
aten::square
aten::squeeze
aten::stack
aten::std
aten::sub
aten::sub_
aten::sum
aten::t
aten::tan
aten::tanh
aten::tanh_
aten::topk
aten::transpose
aten::tril
aten::triu
aten::trunc
aten::unbind
aten::unflatten
aten::uniform_
aten::unsqueeze
aten::var
aten::view
aten::view_as
aten::where
aten::zero_
aten::zeros
aten::zeros_like
aten::celu
aten::celu_
aten::selu
aten::selu_
aten::elu_
aten::glu
aten::hardshrink
aten::softshrink
aten::hardsigmoid
aten::hardsigmoid_
aten::hardswish
aten::hardswish_
aten::log_sigmoid
aten::log_sigmoid_forward
aten::mish
aten::mish_
aten::prelu
aten::_prelu_kernel
aten::rrelu
aten::rrelu_
aten::rrelu_with_noise
aten::rrelu_with_noise_
aten::threshold
aten::threshold_
aten::affine_grid_generator
aten::arccos
aten::arccos_
aten::arccosh
aten::arccosh_
aten::arcsin
aten::arcsin_
aten::arcsinh
aten::arcsinh_
aten::arctan
aten::arctan_
aten::arctanh
aten::arctanh_
aten::arctan2
aten::arctan2_
aten::fix
aten::fix_
aten::greater
aten::greater_
aten::greater_equal
aten::greater_equal_
aten::less
aten::less_
aten::less_equal
aten::less_equal_
aten::not_equal
aten::not_equal_
aten::clip
aten::clip_
aten::moveaxis
aten::swapaxes
aten::swapaxes_
aten::swapdims
aten::swapdims_
aten::row_stack
aten::ger
aten::_safe_softmax
aten::_softmax_backward_data
aten::_log_softmax_backward_data
aten::_scaled_dot_product_flash_attention_for_cpu
aten::_scaled_dot_product_flash_attention_for_cpu_backward
aten::_scaled_dot_product_attention_math
aten::complex
aten::polar
aten::isreal
aten::adjoint
aten::view_as_real
aten::view_as_complex
aten::real
aten::imag
aten::_conj
aten::conj
aten::_conj_physical
aten::conj_physical
aten::conj_physical_
aten::resolve_conj
aten::resolve_neg
aten::angle
aten::convolution
aten::convolution_backward
aten::_convolution
aten::_convolution_mode
aten::conv1d
aten::conv2d
aten::conv3d
aten::conv_transpose1d
aten::conv_transpose2d
aten::conv_transpose3d
aten::im2col
aten::col2im
aten::pixel_shuffle
aten::pixel_unshuffle
aten::channel_shuffle
aten::native_channel_shuffle
aten::_ctc_loss
aten::_ctc_loss_backward
aten::ctc_loss
aten::cdist
aten::_cdist_forward
aten::_euclidean_dist
aten::pdist
aten::_pdist_forward
aten::cosine_similarity
aten::bilinear
aten::_trilinear
aten::embedding_bag
aten::_embedding_bag
aten::_embedding_bag_forward_only
aten::_embedding_bag_backward
aten::_embedding_bag_dense_backward
aten::_embedding_bag_per_sample_weights_backward
aten::embedding_renorm_
aten::dropout_
aten::feature_dropout
aten::feature_dropout_
aten::alpha_dropout
aten::alpha_dropout_
aten::feature_alpha_dropout
aten::feature_alpha_dropout_
aten::native_dropout
aten::native_dropout_backward
aten::einsum
aten::bitwise_left_shift
aten::bitwise_right_shift
aten::index_add
aten::index_add_
aten::scatter_add_
aten::roll
aten::nan_to_num
aten::isin
aten::norm
aten::tile
aten::equal
aten::_local_scalar_dense
aten::copy
aten::fill
aten::poisson
aten::binomial
aten::index_copy
aten::index_copy_
aten::index_fill
aten::index_fill_
aten::scatter_reduce
aten::scatter_reduce_
aten::take
aten::take_along_dim
aten::unfold
aten::tensor_split
aten::detach_
aten::index_reduce
aten::index_reduce_
aten::leaky_relu_
aten::hardtanh_
aten::silu_
aten::eq_
aten::ne_
aten::lt_
aten::le_
aten::gt_
aten::ge_
aten::logical_and_
aten::logical_or_
aten::logical_xor_
aten::logical_not_
aten::bitwise_not_
aten::bitwise_left_shift_
aten::bitwise_right_shift_
aten::atleast_1d
aten::atleast_2d
aten::atleast_3d
aten::hstack
aten::vstack
aten::dstack
aten::column_stack
aten::hsplit
aten::vsplit
aten::dsplit
aten::unsafe_split
aten::unsafe_split_with_sizes
aten::unsafe_chunk
aten::broadcast_to
aten::broadcast_tensors
aten::meshgrid
aten::cartesian_prod
aten::combinations
aten::block_diag
aten::diag_embed
aten::diag
aten::diagflat
aten::fliplr
aten::flipud
aten::rot90
aten::ravel
aten::reshape_as
aten::sum_to_size
aten::alias_copy
aten::as_strided_copy
aten::diagonal_copy
aten::expand_copy
aten::narrow_copy
aten::permute_copy
aten::select_copy
aten::slice_copy
aten::squeeze_copy
aten::t_copy
aten::transpose_copy
aten::unsqueeze_copy
aten::unfold_copy
aten::view_copy
aten::detach_copy
aten::split_copy
aten::split_with_sizes_copy
aten::unbind_copy
aten::slice_scatter
aten::select_scatter
aten::diagonal_scatter
aten::as_strided_scatter
aten::tril_indices
aten::triu_indices
aten::empty_permuted
aten::linalg_cholesky
aten::linalg_inv
aten::linalg_solve_ex
aten::linalg_solve
aten::linalg_det
aten::linalg_slogdet
aten::slogdet
aten::logdet
aten::linalg_eigh
aten::linalg_eigvalsh
aten::linalg_eigvals
aten::linalg_svd
aten::linalg_svdvals
aten::svd
aten::linalg_lu_factor
aten::_lu_with_info
aten::lu_solve
aten::linalg_ldl_factor
aten::matrix_exp
aten::orgqr
aten::linalg_pinv
aten::pinverse
aten::linalg_matrix_rank
aten::linalg_cond
aten::linalg_diagonal
aten::linalg_multi_dot
aten::linalg_tensorinv
aten::linalg_tensorsolve
aten::linalg_vander
aten::linalg_vecdot
aten::linalg_cholesky_ex
aten::linalg_lu_factor_ex
aten::linalg_lu
aten::lu_unpack
aten::linalg_lu_solve
aten::linalg_inv_ex
aten::_linalg_solve_ex
aten::_linalg_det
aten::_linalg_slogdet
aten::linalg_solve_triangular
aten::triangular_solve
aten::cholesky_solve
aten::cholesky_inverse
aten::linalg_ldl_factor_ex
aten::linalg_ldl_solve
aten::trace
aten::det
aten::inverse
aten::cholesky
aten::linalg_qr
aten::linalg_cross
aten::cross
aten::kron
aten::matrix_power
aten::linalg_matrix_power
aten::_linalg_eigh
aten::linalg_eig
aten::_linalg_eigvals
aten::_linalg_svd
aten::linalg_polar
aten::linalg_matrix_sqrth
aten::linalg_matrix_exp
aten::linalg_lstsq
aten::geqrf
aten::linalg_householder_product
aten::ormqr
aten::logspace
aten::linspace
aten::binary_cross_entropy
aten::binary_cross_entropy_with_logits
aten::nll_loss_forward
aten::nll_loss2d_forward
aten::nll_loss
aten::nll_loss2d
aten::nll_loss_nd
aten::cross_entropy_loss
aten::kl_div
aten::l1_loss
aten::smooth_l1_loss
aten::mse_loss
aten::huber_loss
aten::soft_margin_loss
aten::poisson_nll_loss
aten::hinge_embedding_loss
aten::margin_ranking_loss
aten::cosine_embedding_loss
aten::multi_margin_loss
aten::multilabel_margin_loss
aten::multilabel_margin_loss_forward
aten::triplet_margin_loss
aten::pairwise_distance
aten::atan2
aten::atan2_
aten::hypot
aten::hypot_
aten::logaddexp
aten::copysign
aten::copysign_
aten::heaviside
aten::heaviside_
aten::sinc
aten::sinc_
aten::xlogy
aten::xlogy_
aten::frac
aten::frac_
aten::sgn
aten::sgn_
aten::lerp_
aten::trunc_
aten::floor_
aten::ceil_
aten::round_
aten::reciprocal_
aten::rsqrt_
aten::square_
aten::log2_
aten::log10_
aten::log1p_
aten::tan_
aten::erf_
aten::clamp_min_
aten::exp2_
aten::fmod_
aten::tril_
aten::triu_
aten::clamp_max_
aten::nan_to_num_
aten::logaddexp2
aten::gelu_backward
aten::silu_backward
aten::native_batch_norm
aten::_native_batch_norm_legit
aten::_native_batch_norm_legit_no_training
aten::_batch_norm_with_update
aten::_batch_norm_no_update
aten::batch_norm
aten::instance_norm
aten::native_group_norm
aten::group_norm
aten::native_layer_norm
aten::native_layer_norm_backward
aten::linalg_vector_norm
aten::linalg_matrix_norm
aten::linalg_norm
aten::gcd
aten::gcd_
aten::lcm
aten::lcm_
aten::ldexp
aten::ldexp_
aten::frexp
aten::nextafter
aten::nextafter_
aten::float_power
aten::float_power_
aten::positive
aten::put
aten::put_
aten::masked_scatter
aten::masked_scatter_
aten::masked_scatter_backward
aten::_unsafe_masked_index
aten::_unsafe_masked_index_put_accumulate
aten::nonzero_static
aten::_chunk_cat
aten::hash_tensor
aten::max_pool1d_with_indices
aten::max_pool1d
aten::max_pool2d
aten::max_pool3d
aten::max_pool2d_with_indices
aten::max_pool3d_with_indices
aten::max_pool2d_with_indices_backward
aten::max_pool3d_with_indices_backward
aten::avg_pool1d
aten::avg_pool2d
aten::avg_pool3d
aten::avg_pool2d_backward
aten::avg_pool3d_backward
aten::adaptive_avg_pool1d
aten::adaptive_avg_pool2d
aten::adaptive_avg_pool3d
aten::_adaptive_avg_pool2d
aten::_adaptive_avg_pool3d
aten::_adaptive_avg_pool2d_backward
aten::_adaptive_avg_pool3d_backward
aten::adaptive_max_pool1d
aten::adaptive_max_pool2d
aten::adaptive_max_pool3d
aten::adaptive_max_pool2d_backward
aten::adaptive_max_pool3d_backward
aten::fractional_max_pool2d
aten::fractional_max_pool3d
aten::fractional_max_pool2d_backward
aten::fractional_max_pool3d_backward
aten::max_unpool2d
aten::max_unpool3d
aten::vdot
aten::tensordot
aten::inner
aten::cauchy_
aten::exponential_
aten::log_normal_
aten::geometric_
aten::bernoulli
aten::bernoulli_
aten::random_
aten::randint_like
aten::multinomial
aten::normal
aten::nansum
aten::nanmean
aten::cummax
aten::cummin
aten::median
aten::mode
aten::var_mean
aten::std_mean
aten::cumprod_
aten::cumsum_
aten::resize_
aten::resize_as_
aten::upsample_nearest1d
aten::upsample_nearest2d
aten::upsample_nearest3d
aten::_upsample_nearest_exact1d
aten::_upsample_nearest_exact2d
aten::_upsample_nearest_exact3d
aten::upsample_linear1d
aten::upsample_bilinear2d
aten::upsample_trilinear3d
aten::upsample_bicubic2d
aten::_upsample_bilinear2d_aa
aten::_upsample_bicubic2d_aa
aten::upsample_nearest1d_backward
aten::upsample_nearest2d_backward
aten::upsample_nearest3d_backward
aten::_upsample_nearest_exact1d_backward
aten::_upsample_nearest_exact2d_backward
aten::_upsample_nearest_exact3d_backward
aten::upsample_linear1d_backward
aten::upsample_bilinear2d_backward
aten::upsample_trilinear3d_backward
aten::upsample_bicubic2d_backward
aten::_upsample_bilinear2d_aa_backward
aten::_upsample_bicubic2d_aa_backward
aten::grid_sampler
aten::grid_sampler_2d
aten::grid_sampler_3d
aten::grid_sampler_2d_backward
aten::grid_sampler_3d_backward
aten::scalar_tensor
aten::addmm
aten::addmv
aten::addr
aten::addr_
aten::addbmm
aten::baddbmm
aten::addcmul
aten::addcmul_
aten::addcdiv
aten::addcdiv_
aten::addmm_
aten::addmv_
aten::addbmm_
aten::baddbmm_
aten::digamma
aten::digamma_
aten::lgamma
aten::lgamma_
aten::erfc
aten::erfc_
aten::erfinv
aten::erfinv_
aten::i0
aten::i0_
aten::special_i0e
aten::special_i1
aten::special_i1e
aten::special_entr
aten::special_erfcx
aten::special_ndtri
aten::special_log_ndtr
aten::special_airy_ai
aten::special_bessel_j0
aten::special_bessel_j1
aten::special_bessel_y0
aten::special_bessel_y1
aten::special_modified_bessel_i0
aten::special_modified_bessel_i1
aten::special_modified_bessel_k0
aten::special_modified_bessel_k1
aten::special_scaled_modified_bessel_k0
aten::special_scaled_modified_bessel_k1
aten::special_spherical_bessel_j0
aten::polygamma
aten::polygamma_
aten::mvlgamma
aten::mvlgamma_
aten::igamma
aten::igamma_
aten::igammac
aten::igammac_
aten::special_xlog1py
aten::special_zeta
aten::special_chebyshev_polynomial_t
aten::special_chebyshev_polynomial_u
aten::special_chebyshev_polynomial_v
aten::special_chebyshev_polynomial_w
aten::special_shifted_chebyshev_polynomial_t
aten::special_shifted_chebyshev_polynomial_u
aten::special_shifted_chebyshev_polynomial_v
aten::special_shifted_chebyshev_polynomial_w
aten::special_hermite_polynomial_h
aten::special_hermite_polynomial_he
aten::special_laguerre_polynomial_l
aten::special_legendre_polynomial_p
aten::special_psi
aten::special_digamma
aten::special_gammaln
aten::special_erf
aten::special_erfc
aten::special_erfinv
aten::special_i0
aten::special_expit
aten::special_exp2
aten::special_expm1
aten::special_log1p
aten::special_sinc
aten::special_logit
aten::special_round
aten::special_xlogy
aten::special_log_softmax
aten::special_softmax
aten::special_logsumexp
aten::special_gammainc
aten::special_gammaincc
aten::special_polygamma
aten::special_multigammaln
aten::special_ndtr
aten::_fft_c2c
aten::_fft_r2c
aten::_fft_c2r
aten::fft_fft
aten::fft_ifft
aten::fft_rfft
aten::fft_irfft
aten::fft_hfft
aten::fft_ihfft
aten::fft_fft2
aten::fft_ifft2
aten::fft_rfft2
aten::fft_irfft2
aten::fft_hfft2
aten::fft_ihfft2
aten::fft_fftn
aten::fft_ifftn
aten::fft_rfftn
aten::fft_irfftn
aten::fft_hfftn
aten::fft_ihfftn
aten::fft_fftshift
aten::fft_ifftshift
aten::unfold_backward
aten::stft
aten::istft
aten::_unique2
aten::_unique
aten::unique_dim
aten::unique_dim_consecutive
aten::unique_consecutive
aten::bincount
aten::_histogramdd_bin_edges
aten::_histogramdd_from_bin_cts
aten::_histogramdd_from_bin_tensors
aten::histogramdd
aten::histogram
aten::histc
aten::nanmedian
aten::_logcumsumexp
aten::logcumsumexp
aten::renorm
aten::renorm_
aten::dist
aten::segment_reduce
aten::_segment_reduce_backward
aten::msort
aten::trapezoid
aten::trapz
aten::cumulative_trapezoid
aten::cov
aten::corrcoef
aten::quantile
aten::nanquantile
aten::gradient
aten::is_nonzero
aten::is_same_size
aten::is_signed
aten::is_pinned
aten::pin_memory
aten::range
aten::vander
aten::chain_matmul
aten::frobenius_norm
aten::nuclear_norm
aten::negative_
aten::fill_diagonal_
aten::slice_inverse
aten::asin
aten::acos
aten::atan
aten::sinh
aten::cosh
aten::asinh
aten::acosh
aten::atanh
aten::deg2rad
aten::rad2deg
aten::asin_
aten::acos_
aten::atan_
aten::sinh_
aten::cosh_
aten::asinh_
aten::acosh_
aten::atanh_
aten::deg2rad_
aten::rad2deg_
aten::logit
aten::logit_
aten::signbit
aten::fmax
aten::fmin
aten::isposinf
aten::isneginf
aten::_unsafe_view
aten::hann_window
aten::hamming_window
aten::blackman_window
aten::bartlett_window
aten::kaiser_window
aten::randperm"""

# Per packet, same order (Note [Operators defined on first use]): the positions of its schemas in
# _aten.SCHEMAS (base, declared, out=), then after | its rows, separated by ;, each its position in
# ROWS, name, module, kernel table, kind and meta kernel's module.table (- for none).
_PACKETS = """\
0|476 _log_softmax reduction KERNELS reduction -
1|475 _softmax reduction KERNELS reduction -
2|92 _to_copy factory KERNELS meta_aware -
3 1145|709 abs unary KERNELS pointwise -;1145 abs.out out_variants EXPLICIT explicit -
4|737 abs_ unary KERNELS inplace -
6 5 1134|316 add.Tensor pointwise KERNELS pointwise -;317 add.Scalar pointwise KERNELS pointwise -;1134 add.out out_variants EXPLICIT explicit -
8 7|376 add_.Tensor pointwise KERNELS inplace -;377 add_.Scalar pointwise KERNELS inplace -
9|545 alias shape KERNELS view -
10 11 12|483 all reduction KERNELS reduction -;484 all.dim reduction KERNELS reduction -;485 all.dims reduction KERNELS reduction -
13|348 allclose pointwise KERNELS data_dependent -
14 1156|463 amax reduction KERNELS reduction -;1156 amax.out out_variants EXPLICIT explicit -
15 1211|464 amin reduction KERNELS reduction -;1211 amin.out out_variants EXPLICIT explicit -
16 1252|269 aminmax misc_ops KERNELS proxy -;1252 aminmax.out out_variants EXPLICIT explicit -
17 18 19|480 any reduction KERNELS reduction -;481 any.dim reduction KERNELS reduction -;482 any.dims reduction KERNELS reduction -
20 21 22|72 arange factory KERNELS factory factory.META_KERNELS;73 arange.start factory KERNELS factory factory.META_KERNELS;74 arange.start_step factory KERNELS factory factory.META_KERNELS
23 1157|469 argmax reduction KERNELS reduction -;1157 argmax.out out_variants EXPLICIT explicit -
24 1204|470 argmin reduction KERNELS reduction -;1204 argmin.out out_variants EXPLICIT explicit -
25 26 1229|558 argsort sorting KERNELS reduction -;559 argsort.stable sorting KERNELS reduction -;1229 argsort.stable_out out_variants EXPLICIT explicit -
27|565 argwhere sorting KERNELS data_dependent -
28|266 as_strided misc_ops KERNELS own_meta misc_ops.META_KERNELS
30 29|370 bitwise_and.Tensor pointwise KERNELS pointwise -;371 bitwise_and.Scalar pointwise KERNELS pointwise -
31 488|149 bitwise_and_.Scalar inplace_logic OPS.KERNELS inplace -;393 bitwise_and_.Tensor pointwise KERNELS inplace -
32|353 bitwise_not pointwise KERNELS pointwise -
34 33|372 bitwise_or.Tensor pointwise KERNELS pointwise -;373 bitwise_or.Scalar pointwise KERNELS pointwise -
35 489|150 bitwise_or_.Scalar inplace_logic OPS.KERNELS inplace -;394 bitwise_or_.Tensor pointwise KERNELS inplace -
37 36|374 bitwise_xor.Tensor pointwise KERNELS pointwise -;375 bitwise_xor.Scalar pointwise KERNELS pointwise -
38 490|151 bitwise_xor_.Scalar inplace_logic OPS.KERNELS inplace -;395 bitwise_xor_.Tensor pointwise KERNELS inplace -
39 1132|165 bmm linalg KERNELS proxy -;1132 bmm.out out_variants EXPLICIT explicit -
41 40|561 bucketize.Tensor sorting KERNELS proxy -;562 bucketize.Scalar sorting KERNELS proxy -
42 1160|548 cat shape KERNELS proxy -;1160 cat.out out_variants EXPLICIT explicit -
43 1164|718 ceil unary KERNELS pointwise -;1164 ceil.out out_variants EXPLICIT explicit -
44|1036 chunk shape COMPOSITE composite -
45 46 1141|343 clamp pointwise KERNELS pointwise -;344 clamp.Tensor pointwise KERNELS pointwise -;1141 clamp.out out_variants EXPLICIT explicit -
47 766|391 clamp_ pointwise KERNELS inplace -;400 clamp_.Tensor pointwise OPS.KERNELS inplace -
48 764 1165 1289|346 clamp_max pointwise KERNELS pointwise -;398 clamp_max.Tensor pointwise OPS.KERNELS pointwise -;1165 clamp_max.out out_variants EXPLICIT explicit -;1289 clamp_max.Tensor_out out_variants EXPLICIT explicit -
49 762 1166 1288|345 clamp_min pointwise KERNELS pointwise -;396 clamp_min.Tensor pointwise OPS.KERNELS pointwise -;1166 clamp_min.out out_variants EXPLICIT explicit -;1288 clamp_min.Tensor_out out_variants EXPLICIT explicit -
50|547 clone shape KERNELS proxy -
51|285 constant_pad_nd nn_ops KERNELS proxy -
52|1035 contiguous shape COMPOSITE composite -
53|354 copy_ pointwise KERNELS inplace -
54 1167|727 cos unary KERNELS pointwise -;1167 cos.out out_variants EXPLICIT explicit -
55|742 cos_ unary KERNELS inplace -
56 57|273 count_nonzero misc_ops KERNELS reduction -;274 count_nonzero.dim_IntList misc_ops KERNELS reduction -
58 1168|270 cumprod misc_ops KERNELS reduction -;1168 cumprod.out out_variants EXPLICIT explicit -
59 1158|477 cumsum reduction KERNELS reduction -;1158 cumsum.out out_variants EXPLICIT explicit -
60|546 detach shape KERNELS view -
61|533 diagonal shape KERNELS view -
62|987 diff misc_ops COMPOSITE composite -
65 63 66 64 1137|324 div.Tensor pointwise KERNELS pointwise -;325 div.Scalar pointwise KERNELS pointwise -;326 div.Tensor_mode pointwise KERNELS pointwise -;327 div.Scalar_mode pointwise KERNELS pointwise -;1137 div.out out_variants EXPLICIT explicit -
68 69 67 70|382 div_.Tensor pointwise KERNELS inplace -;383 div_.Scalar pointwise KERNELS inplace -;384 div_.Tensor_mode pointwise KERNELS inplace -;385 div_.Scalar_mode pointwise KERNELS inplace -
71|166 dot linalg KERNELS proxy -
72|841 dropout dropout_ops COMPOSITE composite -
73|283 elu nn_ops KERNELS pointwise -
74|818 embedding composite_nn COMPOSITE composite -
75|69 empty.memory_format factory KERNELS factory factory.META_KERNELS
76|82 empty_like factory KERNELS like -
77|70 empty_strided factory KERNELS factory factory.META_KERNELS
79 78 1152|358 eq.Tensor pointwise KERNELS pointwise -;359 eq.Scalar pointwise KERNELS pointwise -;1152 eq.Tensor_out out_variants EXPLICIT explicit -
80 1205|278 erf nn_ops KERNELS pointwise -;1205 erf.out out_variants EXPLICIT explicit -
81 1143|724 exp unary KERNELS pointwise -;1143 exp.out out_variants EXPLICIT explicit -
82 1206|272 exp2 misc_ops KERNELS pointwise -;1206 exp2.out out_variants EXPLICIT explicit -
83|739 exp_ unary KERNELS inplace -
84|539 expand shape KERNELS view -
85|1032 expand_as shape COMPOSITE composite -
86 1207|725 expm1 unary KERNELS pointwise -;1207 expm1.out out_variants EXPLICIT explicit -
87|748 expm1_ unary KERNELS inplace -
88 89|75 eye factory KERNELS factory factory.META_KERNELS;76 eye.m factory KERNELS factory factory.META_KERNELS
90 91|355 fill_.Scalar pointwise KERNELS inplace -;356 fill_.Tensor pointwise KERNELS inplace -
92|1034 flatten.using_ints shape COMPOSITE composite -
93|554 flip shape KERNELS proxy -
94 1150|717 floor unary KERNELS pointwise -;1150 floor.out out_variants EXPLICIT explicit -
95 96|328 floor_divide pointwise KERNELS pointwise -;329 floor_divide.Scalar pointwise KERNELS pointwise -
97 98|387 floor_divide_.Tensor pointwise KERNELS inplace -;388 floor_divide_.Scalar pointwise KERNELS inplace -
100 99 1223 1222|276 fmod.Tensor misc_ops KERNELS pointwise -;277 fmod.Scalar misc_ops KERNELS pointwise -;1222 fmod.Scalar_out out_variants EXPLICIT explicit -;1223 fmod.Tensor_out out_variants EXPLICIT explicit -
101|71 full factory KERNELS factory factory.META_KERNELS
102|85 full_like factory KERNELS like -
103 1192|119 gather indexing KERNELS proxy -;1192 gather.out out_variants EXPLICIT explicit -
105 104|368 ge.Tensor pointwise KERNELS pointwise -;369 ge.Scalar pointwise KERNELS pointwise -
106|279 gelu nn_ops KERNELS pointwise -
108 107|366 gt.Tensor pointwise KERNELS pointwise -;367 gt.Scalar pointwise KERNELS pointwise -
109|282 hardtanh nn_ops KERNELS pointwise -
110|115 index.Tensor indexing KERNELS proxy -
111|117 index_put indexing KERNELS proxy -
112|116 index_put_ indexing KERNELS inplace -
113 1191|118 index_select indexing KERNELS proxy -;1191 index_select.out out_variants EXPLICIT explicit -
114|347 isclose pointwise KERNELS pointwise -
115|723 isfinite unary KERNELS pointwise -
116|722 isinf unary KERNELS pointwise -
117|721 isnan unary KERNELS pointwise -
118 1251|566 kthvalue sorting KERNELS reduction -;1251 kthvalue.values out_variants EXPLICIT explicit -
119|991 layer_norm norm_ops COMPOSITE composite -
121 120|364 le.Tensor pointwise KERNELS pointwise -;365 le.Scalar pointwise KERNELS pointwise -
122|715 leaky_relu unary KERNELS pointwise -
123 693 1195 1196|229 lerp.Tensor math_ops KERNELS pointwise -;349 lerp.Scalar pointwise KERNELS pointwise -;1195 lerp.Scalar_out out_variants EXPLICIT explicit -;1196 lerp.Tensor_out out_variants EXPLICIT explicit -
124|926 linear linalg COMPOSITE composite -
125 1173|730 log unary KERNELS pointwise -;1173 log.out out_variants EXPLICIT explicit -
126 1208|732 log10 unary KERNELS pointwise -;1208 log10.out out_variants EXPLICIT explicit -
127 1209|733 log1p unary KERNELS pointwise -;1209 log1p.out out_variants EXPLICIT explicit -
128 1210|731 log2 unary KERNELS pointwise -;1210 log2.out out_variants EXPLICIT explicit -
129|740 log_ unary KERNELS inplace -
130|474 log_softmax.int reduction KERNELS reduction -
131|350 logical_and pointwise KERNELS pointwise -
132|716 logical_not unary KERNELS pointwise -
133|351 logical_or pointwise KERNELS pointwise -
134|352 logical_xor pointwise KERNELS pointwise -
135 1176|820 logsumexp composite_nn COMPOSITE composite -;1176 logsumexp.out out_variants EXPLICIT explicit -
137 136 1153|362 lt.Tensor pointwise KERNELS pointwise -;363 lt.Scalar pointwise KERNELS pointwise -;1153 lt.Tensor_out out_variants EXPLICIT explicit -
138 139|122 masked_fill.Scalar indexing KERNELS proxy -;123 masked_fill.Tensor indexing KERNELS proxy -
140 141|124 masked_fill_.Scalar indexing KERNELS inplace -;125 masked_fill_.Tensor indexing KERNELS inplace -
142|275 masked_select misc_ops KERNELS data_dependent -
143 1133|925 matmul linalg COMPOSITE composite -;1133 matmul.out out_variants EXPLICIT explicit -
146 144 145 1253 1227 1225|338 max.other pointwise KERNELS pointwise -;465 max reduction KERNELS reduction -;467 max.dim reduction KERNELS reduction -;1225 max.out out_variants EXPLICIT explicit -;1227 max.unary_out out_variants EXPLICIT explicit -;1253 max.dim_max out_variants EXPLICIT explicit -
147 1138|336 maximum pointwise KERNELS pointwise -;1138 maximum.out out_variants EXPLICIT explicit -
148 149 1155|459 mean reduction KERNELS reduction -;460 mean.dim reduction KERNELS reduction -;1155 mean.out out_variants EXPLICIT explicit -
152 150 151 1254 1228 1226|339 min.other pointwise KERNELS pointwise -;466 min reduction KERNELS reduction -;468 min.dim reduction KERNELS reduction -;1226 min.out out_variants EXPLICIT explicit -;1228 min.unary_out out_variants EXPLICIT explicit -;1254 min.dim_min out_variants EXPLICIT explicit -
153 1139|337 minimum pointwise KERNELS pointwise -;1139 minimum.out out_variants EXPLICIT explicit -
154 1131|164 mm linalg KERNELS proxy -;1131 mm.out out_variants EXPLICIT explicit -
155 156|552 movedim.int shape KERNELS view -;553 movedim.intlist shape KERNELS view -
158 157 1136|322 mul.Tensor pointwise KERNELS pointwise -;323 mul.Scalar pointwise KERNELS pointwise -;1136 mul.out out_variants EXPLICIT explicit -
160 159|380 mul_.Tensor pointwise KERNELS inplace -;381 mul_.Scalar pointwise KERNELS inplace -
161|168 mv linalg KERNELS proxy -
162 163|531 narrow shape KERNELS view -;1038 narrow.Tensor shape COMPOSITE composite -
165 164|360 ne.Tensor pointwise KERNELS pointwise -;361 ne.Scalar pointwise KERNELS pointwise -
166 1144|708 neg unary KERNELS pointwise -;1144 neg.out out_variants EXPLICIT explicit -
167|738 neg_ unary KERNELS inplace -
168|86 new_empty factory KERNELS like -
169|264 new_empty_strided misc_ops KERNELS own_meta misc_ops.META_KERNELS
170|89 new_full factory KERNELS like -
171|88 new_ones factory KERNELS like -
172|87 new_zeros factory KERNELS like -
173|126 nonzero indexing KERNELS data_dependent -
174|91 normal_ factory KERNELS inplace -
175|93 numel factory KERNELS meta_aware -
176|286 one_hot nn_ops KERNELS own_meta meta.META_KERNELS
177|68 ones factory KERNELS factory factory.META_KERNELS
178|81 ones_like factory KERNELS like -
179 1202|167 outer linalg KERNELS proxy -;1202 outer.out out_variants EXPLICIT explicit -
180|819 pad composite_nn COMPOSITE composite -
181|538 permute shape KERNELS view -
184 183 182 1140|333 pow.Tensor_Tensor pointwise KERNELS pointwise -;334 pow.Tensor_Scalar pointwise KERNELS pointwise -;335 pow.Scalar pointwise KERNELS pointwise -;1140 pow.Tensor_Scalar_out out_variants EXPLICIT explicit -
185 186|389 pow_.Scalar pointwise KERNELS inplace -;390 pow_.Tensor pointwise KERNELS inplace -
187 188 1182|461 prod reduction KERNELS reduction -;462 prod.dim_int reduction KERNELS reduction -;1182 prod.int_out out_variants EXPLICIT explicit -
189 447|77 rand factory KERNELS factory factory.META_KERNELS;94 rand.generator generator_ops OPS.KERNELS own_meta generator_ops.OPS.META_KERNELS
190 452|83 rand_like factory KERNELS like -;99 rand_like.generator generator_ops OPS.KERNELS like -
191 449 450 451|79 randint factory KERNELS factory factory.META_KERNELS;96 randint.generator generator_ops OPS.KERNELS own_meta generator_ops.OPS.META_KERNELS;97 randint.low generator_ops OPS.KERNELS own_meta generator_ops.OPS.META_KERNELS;98 randint.low_generator generator_ops OPS.KERNELS own_meta generator_ops.OPS.META_KERNELS
192 448|78 randn factory KERNELS factory factory.META_KERNELS;95 randn.generator generator_ops OPS.KERNELS own_meta generator_ops.OPS.META_KERNELS
193 453|84 randn_like factory KERNELS like -;100 randn_like.generator generator_ops OPS.KERNELS like -
194 1212|736 reciprocal unary KERNELS pointwise -;1212 reciprocal.out out_variants EXPLICIT explicit -
195|712 relu unary KERNELS pointwise -
196|746 relu_ unary KERNELS inplace -
198 197 201 1224|330 remainder.Tensor pointwise KERNELS pointwise -;331 remainder.Scalar pointwise KERNELS pointwise -;332 remainder.Scalar_Tensor pointwise KERNELS pointwise -;1224 remainder.Tensor_out out_variants EXPLICIT explicit -
199 200|386 remainder_.Scalar pointwise KERNELS inplace -;392 remainder_.Tensor pointwise KERNELS inplace -
202|555 repeat shape KERNELS proxy -
203 204 205|567 repeat_interleave.self_int sorting KERNELS proxy -;568 repeat_interleave.self_Tensor sorting KERNELS data_dependent -;569 repeat_interleave.Tensor sorting KERNELS data_dependent -
206|535 reshape shape KERNELS view -
207|817 rms_norm composite_nn COMPOSITE composite -
208 209 1151|271 round.decimals misc_ops KERNELS pointwise -;719 round unary KERNELS pointwise -;1151 round.out out_variants EXPLICIT explicit -
210 1147|735 rsqrt unary KERNELS pointwise -;1147 rsqrt.out out_variants EXPLICIT explicit -
212 211|320 rsub.Tensor pointwise KERNELS pointwise -;321 rsub.Scalar pointwise KERNELS pointwise -
213|807 scaled_dot_product_attention attention_ops COMPOSITE composite -
215 214 218 219 1218 1219|120 scatter.src indexing KERNELS proxy -;121 scatter.value indexing KERNELS proxy -;130 scatter.reduce indexing KERNELS proxy -;131 scatter.value_reduce indexing KERNELS proxy -;1218 scatter.src_out out_variants EXPLICIT explicit -;1219 scatter.value_out out_variants EXPLICIT explicit -
216 217 220 221|127 scatter_.src indexing KERNELS inplace -;128 scatter_.value indexing KERNELS inplace -;132 scatter_.reduce indexing KERNELS inplace -;133 scatter_.value_reduce indexing KERNELS inplace -
222 1220|129 scatter_add indexing KERNELS proxy -;1220 scatter_add.out out_variants EXPLICIT explicit -
224 223|563 searchsorted.Tensor sorting KERNELS proxy -;564 searchsorted.Scalar sorting KERNELS proxy -
225|543 select.int shape KERNELS view -
226 1148|714 sigmoid unary KERNELS pointwise -;1148 sigmoid.out out_variants EXPLICIT explicit -
227|745 sigmoid_ unary KERNELS inplace -
228 1193|710 sign unary KERNELS pointwise -;1193 sign.out out_variants EXPLICIT explicit -
229|747 sign_ unary KERNELS inplace -
230|713 silu unary KERNELS pointwise -
231 1179|726 sin unary KERNELS pointwise -;1179 sin.out out_variants EXPLICIT explicit -
232|741 sin_ unary KERNELS inplace -
233|544 slice.Tensor shape KERNELS view -
234 1159|473 softmax.int reduction KERNELS reduction -;1159 softmax.int_out out_variants EXPLICIT explicit -
235|284 softplus nn_ops KERNELS pointwise -
236 237 1260|478 sort reduction KERNELS reduction -;560 sort.stable sorting KERNELS reduction -;1260 sort.values out_variants EXPLICIT explicit -
238 239|268 split.sizes misc_ops KERNELS view -;550 split.Tensor shape KERNELS view -
240|267 split_with_sizes misc_ops KERNELS view -
241 1146|734 sqrt unary KERNELS pointwise -;1146 sqrt.out out_variants EXPLICIT explicit -
242|744 sqrt_ unary KERNELS inplace -
243 1213|711 square unary KERNELS pointwise -;1213 square.out out_variants EXPLICIT explicit -
244 245 246|541 squeeze shape KERNELS view -;542 squeeze.dim shape KERNELS view -;551 squeeze.dims shape KERNELS view -
247 1161|549 stack shape KERNELS proxy -;1161 stack.out out_variants EXPLICIT explicit -
438 248 440 1214|472 std.correction reduction KERNELS reduction -;853 std.dim extra_ops COMPOSITE composite -;855 std extra_ops COMPOSITE composite -;1214 std.correction_out out_variants EXPLICIT explicit -
250 249 1135|318 sub.Tensor pointwise KERNELS pointwise -;319 sub.Scalar pointwise KERNELS pointwise -;1135 sub.out out_variants EXPLICIT explicit -
252 251|378 sub_.Scalar pointwise KERNELS inplace -;379 sub_.Tensor pointwise KERNELS inplace -
254 253 1154|457 sum reduction KERNELS reduction -;458 sum.dim_IntList reduction KERNELS reduction -;1154 sum.IntList_out out_variants EXPLICIT explicit -
255|536 t shape KERNELS view -
256 1215|728 tan unary KERNELS pointwise -;1215 tan.out out_variants EXPLICIT explicit -
257 1149|729 tanh unary KERNELS pointwise -;1149 tanh.out out_variants EXPLICIT explicit -
258|743 tanh_ unary KERNELS inplace -
259 1261|479 topk reduction KERNELS topk -;1261 topk.values out_variants EXPLICIT explicit -
260|537 transpose.int shape KERNELS view -
261 1188|557 tril shape KERNELS proxy -;1188 tril.out out_variants EXPLICIT explicit -
262 1187|556 triu shape KERNELS proxy -;1187 triu.out out_variants EXPLICIT explicit -
263 1183|720 trunc unary KERNELS pointwise -;1183 trunc.out out_variants EXPLICIT explicit -
264|532 unbind.int shape KERNELS view -
265|1037 unflatten.int shape COMPOSITE composite -
266|90 uniform_ factory KERNELS inplace -
267|540 unsqueeze shape KERNELS view -
437 268 439 1216|471 var.correction reduction KERNELS reduction -;852 var.dim extra_ops COMPOSITE composite -;854 var extra_ops COMPOSITE composite -;1216 var.correction_out out_variants EXPLICIT explicit -
269 270|265 view.dtype misc_ops KERNELS own_meta misc_ops.META_KERNELS;534 view shape KERNELS view -
271|1033 view_as shape COMPOSITE composite -
274 272 273 1142|340 where.self pointwise KERNELS pointwise -;341 where.ScalarOther pointwise KERNELS pointwise -;342 where.ScalarSelf pointwise KERNELS pointwise -;1142 where.self_out out_variants EXPLICIT explicit -
275|357 zero_ pointwise KERNELS inplace -
276|67 zeros factory KERNELS factory factory.META_KERNELS
277|80 zeros_like factory KERNELS like -
278|0 celu activation_ops KERNELS pointwise -
279|12 celu_ activation_ops KERNELS inplace -
280|752 selu activation_ops COMPOSITE composite -
281|753 selu_ activation_ops COMPOSITE composite -
282|17 elu_ activation_ops KERNELS inplace -
283|1 glu activation_ops KERNELS proxy -
284|2 hardshrink activation_ops KERNELS pointwise -
285|3 softshrink activation_ops KERNELS pointwise -
286|4 hardsigmoid activation_ops KERNELS pointwise -
287|13 hardsigmoid_ activation_ops KERNELS inplace -
288|5 hardswish activation_ops KERNELS pointwise -
289|14 hardswish_ activation_ops KERNELS inplace -
290|754 log_sigmoid activation_ops COMPOSITE composite -
291|6 log_sigmoid_forward activation_ops KERNELS proxy -
292|7 mish activation_ops KERNELS pointwise -
293|15 mish_ activation_ops KERNELS inplace -
294|755 prelu activation_ops COMPOSITE composite -
295|8 _prelu_kernel activation_ops KERNELS pointwise -
296|756 rrelu activation_ops COMPOSITE composite -
297|757 rrelu_ activation_ops COMPOSITE composite -
298|9 rrelu_with_noise activation_ops KERNELS proxy -
299|10 rrelu_with_noise_ activation_ops KERNELS inplace -
300|11 threshold activation_ops KERNELS pointwise -
301|16 threshold_ activation_ops KERNELS inplace -
302|758 affine_grid_generator affine_grid OPS.COMPOSITE composite -
303|759 arccos aliases OPS.COMPOSITE composite -
304|760 arccos_ aliases OPS.COMPOSITE composite -
305|761 arccosh aliases OPS.COMPOSITE composite -
306|762 arccosh_ aliases OPS.COMPOSITE composite -
307|763 arcsin aliases OPS.COMPOSITE composite -
308|764 arcsin_ aliases OPS.COMPOSITE composite -
309|765 arcsinh aliases OPS.COMPOSITE composite -
310|766 arcsinh_ aliases OPS.COMPOSITE composite -
311|767 arctan aliases OPS.COMPOSITE composite -
312|768 arctan_ aliases OPS.COMPOSITE composite -
313|769 arctanh aliases OPS.COMPOSITE composite -
314|770 arctanh_ aliases OPS.COMPOSITE composite -
315|771 arctan2 aliases OPS.COMPOSITE composite -
316|772 arctan2_ aliases OPS.COMPOSITE composite -
317|773 fix aliases OPS.COMPOSITE composite -
318|774 fix_ aliases OPS.COMPOSITE composite -
319 320|775 greater.Tensor aliases OPS.COMPOSITE composite -;776 greater.Scalar aliases OPS.COMPOSITE composite -
322 321|777 greater_.Tensor aliases OPS.COMPOSITE composite -;778 greater_.Scalar aliases OPS.COMPOSITE composite -
323 324|779 greater_equal.Tensor aliases OPS.COMPOSITE composite -;780 greater_equal.Scalar aliases OPS.COMPOSITE composite -
326 325|781 greater_equal_.Tensor aliases OPS.COMPOSITE composite -;782 greater_equal_.Scalar aliases OPS.COMPOSITE composite -
327 328|783 less.Tensor aliases OPS.COMPOSITE composite -;784 less.Scalar aliases OPS.COMPOSITE composite -
330 329|785 less_.Tensor aliases OPS.COMPOSITE composite -;786 less_.Scalar aliases OPS.COMPOSITE composite -
331 332|787 less_equal.Tensor aliases OPS.COMPOSITE composite -;788 less_equal.Scalar aliases OPS.COMPOSITE composite -
334 333|789 less_equal_.Tensor aliases OPS.COMPOSITE composite -;790 less_equal_.Scalar aliases OPS.COMPOSITE composite -
335 336|791 not_equal.Tensor aliases OPS.COMPOSITE composite -;792 not_equal.Scalar aliases OPS.COMPOSITE composite -
338 337|793 not_equal_.Tensor aliases OPS.COMPOSITE composite -;794 not_equal_.Scalar aliases OPS.COMPOSITE composite -
339 341|795 clip aliases OPS.COMPOSITE composite -;797 clip.Tensor aliases OPS.COMPOSITE composite -
340 342|796 clip_ aliases OPS.COMPOSITE composite -;798 clip_.Tensor aliases OPS.COMPOSITE composite -
344 343|799 moveaxis.int aliases OPS.COMPOSITE composite -;800 moveaxis.intlist aliases OPS.COMPOSITE composite -
345|801 swapaxes aliases OPS.COMPOSITE composite -
346|802 swapaxes_ aliases OPS.COMPOSITE composite -
347|803 swapdims aliases OPS.COMPOSITE composite -
348|804 swapdims_ aliases OPS.COMPOSITE composite -
349|805 row_stack aliases OPS.COMPOSITE composite -
350|806 ger aliases OPS.COMPOSITE composite -
351|18 _safe_softmax attention_ops KERNELS proxy -
352|19 _softmax_backward_data attention_ops KERNELS proxy -
353|20 _log_softmax_backward_data attention_ops KERNELS proxy -
354|21 _scaled_dot_product_flash_attention_for_cpu attention_ops KERNELS proxy -
355|22 _scaled_dot_product_flash_attention_for_cpu_backward attention_ops KERNELS proxy -
356|808 _scaled_dot_product_attention_math attention_ops COMPOSITE composite -
357 1265|23 complex complex_build OPS.KERNELS pointwise -;1265 complex.out out_variants EXPLICIT explicit -
358 1266|24 polar complex_build OPS.KERNELS pointwise -;1266 polar.out out_variants EXPLICIT explicit -
359|809 isreal complex_build OPS.COMPOSITE composite -
360|810 adjoint complex_ops OPS.COMPOSITE composite -
361|25 view_as_real complex_views OPS.KERNELS view -
362|26 view_as_complex complex_views OPS.KERNELS view -
363|811 real complex_views OPS.COMPOSITE composite -
364|812 imag complex_views OPS.COMPOSITE composite -
365|27 _conj complex_views OPS.KERNELS pointwise -
366|813 conj complex_views OPS.COMPOSITE composite -
367|28 _conj_physical complex_views OPS.KERNELS pointwise -
368 1267|814 conj_physical complex_views OPS.COMPOSITE composite -;1267 conj_physical.out out_variants EXPLICIT explicit -
369|29 conj_physical_ complex_views OPS.KERNELS inplace -
370|815 resolve_conj complex_views OPS.COMPOSITE composite -
371|816 resolve_neg complex_views OPS.COMPOSITE composite -
372 1268|30 angle complex_views OPS.KERNELS pointwise -;1268 angle.out out_variants EXPLICIT explicit -
373|31 convolution conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS
374|32 convolution_backward conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS
376 375|33 _convolution conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS;821 _convolution.deprecated conv_ops OPS.COMPOSITE composite -
377|822 _convolution_mode conv_ops OPS.COMPOSITE composite -
378 381|823 conv1d conv_ops OPS.COMPOSITE composite -;826 conv1d.padding conv_ops OPS.COMPOSITE composite -
379 382|824 conv2d conv_ops OPS.COMPOSITE composite -;827 conv2d.padding conv_ops OPS.COMPOSITE composite -
380 383|825 conv3d conv_ops OPS.COMPOSITE composite -;828 conv3d.padding conv_ops OPS.COMPOSITE composite -
384|829 conv_transpose1d conv_ops OPS.COMPOSITE composite -
385|830 conv_transpose2d.input conv_ops OPS.COMPOSITE composite -
386|831 conv_transpose3d.input conv_ops OPS.COMPOSITE composite -
387|34 im2col conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS
388|35 col2im conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS
389|36 pixel_shuffle conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS
390|37 pixel_unshuffle conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS
391|38 channel_shuffle conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS
392|832 native_channel_shuffle conv_ops OPS.COMPOSITE composite -
393 394|39 _ctc_loss ctc_ops KERNELS own_meta ctc_ops.META_KERNELS;40 _ctc_loss.Tensor ctc_ops KERNELS data_dependent -
395 396|41 _ctc_loss_backward ctc_ops KERNELS own_meta ctc_ops.META_KERNELS;42 _ctc_loss_backward.Tensor ctc_ops KERNELS own_meta ctc_ops.META_KERNELS
397 398|833 ctc_loss.IntList ctc_ops COMPOSITE composite -;834 ctc_loss.Tensor ctc_ops COMPOSITE composite -
399|835 cdist distance_ops COMPOSITE composite -
400|43 _cdist_forward distance_ops KERNELS proxy -
401|44 _euclidean_dist distance_ops KERNELS proxy -
402|836 pdist distance_ops COMPOSITE composite -
403|45 _pdist_forward distance_ops KERNELS proxy -
404|837 cosine_similarity distance_ops COMPOSITE composite -
405|838 bilinear distance_ops COMPOSITE composite -
406|46 _trilinear distance_ops KERNELS proxy -
407 408|839 embedding_bag distance_ops COMPOSITE composite -;840 embedding_bag.padding_idx distance_ops COMPOSITE composite -
409|47 _embedding_bag distance_ops KERNELS proxy -
410|48 _embedding_bag_forward_only distance_ops KERNELS proxy -
411|50 _embedding_bag_backward distance_ops KERNELS proxy -
412|51 _embedding_bag_dense_backward distance_ops KERNELS proxy -
413|52 _embedding_bag_per_sample_weights_backward distance_ops KERNELS proxy -
414|49 embedding_renorm_ distance_ops KERNELS inplace -
415|842 dropout_ dropout_ops COMPOSITE composite -
416|843 feature_dropout dropout_ops COMPOSITE composite -
417|844 feature_dropout_ dropout_ops COMPOSITE composite -
418|845 alpha_dropout dropout_ops COMPOSITE composite -
419|846 alpha_dropout_ dropout_ops COMPOSITE composite -
420|847 feature_alpha_dropout dropout_ops COMPOSITE composite -
421|848 feature_alpha_dropout_ dropout_ops COMPOSITE composite -
422|53 native_dropout dropout_ops KERNELS proxy -
423|54 native_dropout_backward dropout_ops KERNELS proxy -
424|849 einsum einsum OPS.COMPOSITE composite -
425 426|55 bitwise_left_shift.Tensor extra_ops KERNELS pointwise -;56 bitwise_left_shift.Tensor_Scalar extra_ops KERNELS pointwise -
427 428|57 bitwise_right_shift.Tensor extra_ops KERNELS pointwise -;58 bitwise_right_shift.Tensor_Scalar extra_ops KERNELS pointwise -
429|59 index_add extra_ops KERNELS proxy -
430|60 index_add_ extra_ops KERNELS inplace -
431|61 scatter_add_ extra_ops KERNELS inplace -
432|62 roll extra_ops KERNELS proxy -
433 1172|63 nan_to_num extra_ops KERNELS pointwise -;1172 nan_to_num.out out_variants EXPLICIT explicit -
434|64 isin.Tensor_Tensor extra_ops KERNELS proxy -
435 436 1217|850 norm.Scalar extra_ops COMPOSITE composite -;851 norm.ScalarOpt_dim extra_ops COMPOSITE composite -;1217 norm.out out_variants EXPLICIT explicit -
441|856 tile extra_ops COMPOSITE composite -
442|65 equal extra_ops KERNELS own_meta extra_ops.META_KERNELS
443|66 _local_scalar_dense extra_ops KERNELS own_meta extra_ops.META_KERNELS
444|857 copy functional_forms OPS.COMPOSITE composite -
445 446|858 fill.Scalar functional_forms OPS.COMPOSITE composite -;859 fill.Tensor functional_forms OPS.COMPOSITE composite -
454 1269|101 poisson generator_ops OPS.KERNELS own_meta generator_ops.OPS.META_KERNELS;1269 poisson.out out_variants EXPLICIT explicit -
455 1270|102 binomial generator_ops OPS.KERNELS own_meta generator_ops.OPS.META_KERNELS;1270 binomial.out out_variants EXPLICIT explicit -
456 1170|103 index_copy index_ops KERNELS proxy -;1170 index_copy.out out_variants EXPLICIT explicit -
457|104 index_copy_ index_ops KERNELS inplace -
459 458|105 index_fill.int_Scalar index_ops KERNELS proxy -;106 index_fill.int_Tensor index_ops KERNELS proxy -
461 460|107 index_fill_.int_Scalar index_ops KERNELS inplace -;108 index_fill_.int_Tensor index_ops KERNELS inplace -
462 1185|109 scatter_reduce.two index_ops KERNELS proxy -;1185 scatter_reduce.two_out out_variants EXPLICIT explicit -
463|110 scatter_reduce_.two index_ops KERNELS inplace -
464 1189|860 take index_ops COMPOSITE composite -;1189 take.out out_variants EXPLICIT explicit -
465 1190|861 take_along_dim index_ops COMPOSITE composite -;1190 take_along_dim.out out_variants EXPLICIT explicit -
466|111 unfold index_ops KERNELS view -
467 468 469|862 tensor_split.sections index_ops COMPOSITE composite -;863 tensor_split.indices index_ops COMPOSITE composite -;864 tensor_split.tensor_indices_or_sections index_ops COMPOSITE composite -
470|112 detach_ index_ops KERNELS own_meta index_ops.META_KERNELS
471 1271|113 index_reduce index_reduce_ops OPS.KERNELS proxy -;1271 index_reduce.out out_variants EXPLICIT explicit -
472|114 index_reduce_ index_reduce_ops OPS.KERNELS inplace -
473|134 leaky_relu_ inplace_activations OPS.KERNELS inplace -
474|135 hardtanh_ inplace_activations OPS.KERNELS inplace -
475|136 silu_ inplace_activations OPS.KERNELS inplace -
477 476|137 eq_.Tensor inplace_logic OPS.KERNELS inplace -;138 eq_.Scalar inplace_logic OPS.KERNELS inplace -
479 478|139 ne_.Tensor inplace_logic OPS.KERNELS inplace -;140 ne_.Scalar inplace_logic OPS.KERNELS inplace -
481 480|141 lt_.Tensor inplace_logic OPS.KERNELS inplace -;142 lt_.Scalar inplace_logic OPS.KERNELS inplace -
483 482|143 le_.Tensor inplace_logic OPS.KERNELS inplace -;144 le_.Scalar inplace_logic OPS.KERNELS inplace -
485 484|145 gt_.Tensor inplace_logic OPS.KERNELS inplace -;146 gt_.Scalar inplace_logic OPS.KERNELS inplace -
487 486|147 ge_.Tensor inplace_logic OPS.KERNELS inplace -;148 ge_.Scalar inplace_logic OPS.KERNELS inplace -
491|152 logical_and_ inplace_logic OPS.KERNELS inplace -
492|153 logical_or_ inplace_logic OPS.KERNELS inplace -
493|154 logical_xor_ inplace_logic OPS.KERNELS inplace -
494|155 logical_not_ inplace_logic OPS.KERNELS inplace -
495|156 bitwise_not_ inplace_logic OPS.KERNELS inplace -
497 496|157 bitwise_left_shift_.Tensor inplace_logic OPS.KERNELS inplace -;158 bitwise_left_shift_.Tensor_Scalar inplace_logic OPS.KERNELS inplace -
499 498|159 bitwise_right_shift_.Tensor inplace_logic OPS.KERNELS inplace -;160 bitwise_right_shift_.Tensor_Scalar inplace_logic OPS.KERNELS inplace -
500 501|865 atleast_1d joining_ops OPS.COMPOSITE composite -;866 atleast_1d.Sequence joining_ops OPS.COMPOSITE composite -
502 503|867 atleast_2d joining_ops OPS.COMPOSITE composite -;868 atleast_2d.Sequence joining_ops OPS.COMPOSITE composite -
504 505|869 atleast_3d joining_ops OPS.COMPOSITE composite -;870 atleast_3d.Sequence joining_ops OPS.COMPOSITE composite -
506 1272|871 hstack joining_ops OPS.COMPOSITE composite -;1272 hstack.out out_variants EXPLICIT explicit -
507 1273|872 vstack joining_ops OPS.COMPOSITE composite -;1273 vstack.out out_variants EXPLICIT explicit -
508 1274|873 dstack joining_ops OPS.COMPOSITE composite -;1274 dstack.out out_variants EXPLICIT explicit -
509 1275|874 column_stack joining_ops OPS.COMPOSITE composite -;1275 column_stack.out out_variants EXPLICIT explicit -
510 511|875 hsplit.int joining_ops OPS.COMPOSITE composite -;876 hsplit.array joining_ops OPS.COMPOSITE composite -
512 513|877 vsplit.int joining_ops OPS.COMPOSITE composite -;878 vsplit.array joining_ops OPS.COMPOSITE composite -
514 515|879 dsplit.int joining_ops OPS.COMPOSITE composite -;880 dsplit.array joining_ops OPS.COMPOSITE composite -
516|881 unsafe_split.Tensor joining_ops OPS.COMPOSITE composite -
517|882 unsafe_split_with_sizes joining_ops OPS.COMPOSITE composite -
518|883 unsafe_chunk joining_ops OPS.COMPOSITE composite -
519|884 broadcast_to joining_ops OPS.COMPOSITE composite -
520|885 broadcast_tensors joining_ops OPS.COMPOSITE composite -
521 522|886 meshgrid joining_ops OPS.COMPOSITE composite -;887 meshgrid.indexing joining_ops OPS.COMPOSITE composite -
523|888 cartesian_prod joining_ops OPS.COMPOSITE composite -
524|889 combinations joining_ops OPS.COMPOSITE composite -
525|890 block_diag joining_ops OPS.COMPOSITE composite -
526|891 diag_embed joining_ops OPS.COMPOSITE composite -
527 1276|892 diag joining_ops OPS.COMPOSITE composite -;1276 diag.out out_variants EXPLICIT explicit -
528|893 diagflat joining_ops OPS.COMPOSITE composite -
529|894 fliplr joining_ops OPS.COMPOSITE composite -
530|895 flipud joining_ops OPS.COMPOSITE composite -
531|896 rot90 joining_ops OPS.COMPOSITE composite -
532|897 ravel joining_ops OPS.COMPOSITE composite -
533|898 reshape_as joining_ops OPS.COMPOSITE composite -
534|899 sum_to_size joining_ops OPS.COMPOSITE composite -
535|900 alias_copy joining_ops OPS.COMPOSITE composite -
536|901 as_strided_copy joining_ops OPS.COMPOSITE composite -
537|902 diagonal_copy joining_ops OPS.COMPOSITE composite -
538|903 expand_copy joining_ops OPS.COMPOSITE composite -
539|904 narrow_copy joining_ops OPS.COMPOSITE composite -
540|905 permute_copy joining_ops OPS.COMPOSITE composite -
541|906 select_copy.int joining_ops OPS.COMPOSITE composite -
542|907 slice_copy.Tensor joining_ops OPS.COMPOSITE composite -
543 544 545|908 squeeze_copy joining_ops OPS.COMPOSITE composite -;909 squeeze_copy.dim joining_ops OPS.COMPOSITE composite -;910 squeeze_copy.dims joining_ops OPS.COMPOSITE composite -
546|911 t_copy joining_ops OPS.COMPOSITE composite -
547|912 transpose_copy.int joining_ops OPS.COMPOSITE composite -
548|913 unsqueeze_copy joining_ops OPS.COMPOSITE composite -
549|914 unfold_copy joining_ops OPS.COMPOSITE composite -
550 551|915 view_copy joining_ops OPS.COMPOSITE composite -;916 view_copy.dtype joining_ops OPS.COMPOSITE composite -
552|917 detach_copy joining_ops OPS.COMPOSITE composite -
553|918 split_copy.Tensor joining_ops OPS.COMPOSITE composite -
554|919 split_with_sizes_copy joining_ops OPS.COMPOSITE composite -
555|920 unbind_copy.int joining_ops OPS.COMPOSITE composite -
556|921 slice_scatter joining_ops OPS.COMPOSITE composite -
557|922 select_scatter joining_ops OPS.COMPOSITE composite -
558|923 diagonal_scatter joining_ops OPS.COMPOSITE composite -
559|924 as_strided_scatter joining_ops OPS.COMPOSITE composite -
560|161 tril_indices layout_factories OPS.KERNELS own_meta layout_factories.OPS.META_KERNELS
561|162 triu_indices layout_factories OPS.KERNELS own_meta layout_factories.OPS.META_KERNELS
562|163 empty_permuted layout_factories OPS.KERNELS own_meta layout_factories.OPS.META_KERNELS
563 1198|927 linalg_cholesky linalg_composite OPS.COMPOSITE composite -;1198 linalg_cholesky.out out_variants EXPLICIT explicit -
564 1201|928 linalg_inv linalg_composite OPS.COMPOSITE composite -;1201 linalg_inv.out out_variants EXPLICIT explicit -
565|929 linalg_solve_ex linalg_composite OPS.COMPOSITE composite -
566 1203|930 linalg_solve linalg_composite OPS.COMPOSITE composite -;1203 linalg_solve.out out_variants EXPLICIT explicit -
567 1200|931 linalg_det linalg_composite OPS.COMPOSITE composite -;1200 linalg_det.out out_variants EXPLICIT explicit -
568|932 linalg_slogdet linalg_composite OPS.COMPOSITE composite -
569|933 slogdet linalg_composite OPS.COMPOSITE composite -
570|934 logdet linalg_composite OPS.COMPOSITE composite -
571 1264|935 linalg_eigh linalg_composite OPS.COMPOSITE composite -;1264 linalg_eigh.eigvals out_variants EXPLICIT explicit -
572|936 linalg_eigvalsh linalg_composite OPS.COMPOSITE composite -
573|937 linalg_eigvals linalg_composite OPS.COMPOSITE composite -
574 1263|938 linalg_svd linalg_composite OPS.COMPOSITE composite -;1263 linalg_svd.U out_variants EXPLICIT explicit -
575|939 linalg_svdvals linalg_composite OPS.COMPOSITE composite -
576|940 svd linalg_composite OPS.COMPOSITE composite -
577|941 linalg_lu_factor linalg_composite OPS.COMPOSITE composite -
578|942 _lu_with_info linalg_composite OPS.COMPOSITE composite -
579|943 lu_solve linalg_composite OPS.COMPOSITE composite -
580|944 linalg_ldl_factor linalg_composite OPS.COMPOSITE composite -
581|945 matrix_exp linalg_composite OPS.COMPOSITE composite -
582|946 orgqr linalg_composite OPS.COMPOSITE composite -
584 583 631 585|194 linalg_pinv.atol_rtol_tensor linalg_spectral OPS.KERNELS meta_aware -;947 linalg_pinv.atol_rtol_float linalg_composite OPS.COMPOSITE composite -;948 linalg_pinv linalg_composite OPS.COMPOSITE composite -;949 linalg_pinv.rcond_tensor linalg_composite OPS.COMPOSITE composite -
586|950 pinverse linalg_composite OPS.COMPOSITE composite -
589 590 587 588|951 linalg_matrix_rank.atol_rtol_tensor linalg_composite OPS.COMPOSITE composite -;952 linalg_matrix_rank.atol_rtol_float linalg_composite OPS.COMPOSITE composite -;953 linalg_matrix_rank linalg_composite OPS.COMPOSITE composite -;954 linalg_matrix_rank.tol_tensor linalg_composite OPS.COMPOSITE composite -
591 592|955 linalg_cond linalg_composite OPS.COMPOSITE composite -;956 linalg_cond.p_str linalg_composite OPS.COMPOSITE composite -
593|957 linalg_diagonal linalg_composite OPS.COMPOSITE composite -
594|958 linalg_multi_dot linalg_composite OPS.COMPOSITE composite -
595|959 linalg_tensorinv linalg_composite OPS.COMPOSITE composite -
596|960 linalg_tensorsolve linalg_composite OPS.COMPOSITE composite -
597|961 linalg_vander linalg_composite OPS.COMPOSITE composite -
598|962 linalg_vecdot linalg_composite OPS.COMPOSITE composite -
599|169 linalg_cholesky_ex linalg_factor OPS.KERNELS meta_aware -
600|170 linalg_lu_factor_ex linalg_factor OPS.KERNELS meta_aware -
601|171 linalg_lu linalg_factor OPS.KERNELS meta_aware -
602|172 lu_unpack linalg_factor OPS.KERNELS meta_aware -
603|173 linalg_lu_solve linalg_factor OPS.KERNELS meta_aware -
604|174 linalg_inv_ex linalg_factor OPS.KERNELS meta_aware -
605|175 _linalg_solve_ex linalg_factor OPS.KERNELS meta_aware -
606|176 _linalg_det linalg_factor OPS.KERNELS meta_aware -
607|177 _linalg_slogdet linalg_factor OPS.KERNELS meta_aware -
608|178 linalg_solve_triangular linalg_factor OPS.KERNELS meta_aware -
609|179 triangular_solve linalg_factor OPS.KERNELS meta_aware -
610|180 cholesky_solve linalg_factor OPS.KERNELS meta_aware -
611|181 cholesky_inverse linalg_factor OPS.KERNELS meta_aware -
612|182 linalg_ldl_factor_ex linalg_factor OPS.KERNELS meta_aware -
613|183 linalg_ldl_solve linalg_factor OPS.KERNELS meta_aware -
614|184 trace linalg_ops KERNELS own_meta linalg_ops.META_KERNELS
615|963 det linalg_ops COMPOSITE composite -
616 1230|964 inverse linalg_ops COMPOSITE composite -;1230 inverse.out out_variants EXPLICIT explicit -
617 1221|965 cholesky linalg_ops COMPOSITE composite -;1221 cholesky.out out_variants EXPLICIT explicit -
618 1262|185 linalg_qr linalg_ops KERNELS own_meta linalg_ops.META_KERNELS;1262 linalg_qr.out out_variants EXPLICIT explicit -
619 1199|186 linalg_cross linalg_ops KERNELS own_meta linalg_ops.META_KERNELS;1199 linalg_cross.out out_variants EXPLICIT explicit -
620 1186|966 cross linalg_ops COMPOSITE composite -;1186 cross.out out_variants EXPLICIT explicit -
621 1171|967 kron linalg_ops COMPOSITE composite -;1171 kron.out out_variants EXPLICIT explicit -
622 1177|968 matrix_power linalg_ops COMPOSITE composite -;1177 matrix_power.out out_variants EXPLICIT explicit -
623 1232|969 linalg_matrix_power linalg_ops COMPOSITE composite -;1232 linalg_matrix_power.out out_variants EXPLICIT explicit -
624|187 _linalg_eigh linalg_spectral OPS.KERNELS meta_aware -
625|188 linalg_eig linalg_spectral OPS.KERNELS meta_aware -
626|189 _linalg_eigvals linalg_spectral OPS.KERNELS meta_aware -
627|190 _linalg_svd linalg_spectral OPS.KERNELS meta_aware -
628|191 linalg_polar linalg_spectral OPS.KERNELS meta_aware -
629|192 linalg_matrix_sqrth linalg_spectral OPS.KERNELS meta_aware -
630|193 linalg_matrix_exp linalg_spectral OPS.KERNELS meta_aware -
632|195 linalg_lstsq linalg_spectral OPS.KERNELS meta_aware -
633|196 geqrf linalg_spectral OPS.KERNELS meta_aware -
634|197 linalg_householder_product linalg_spectral OPS.KERNELS meta_aware -
635|198 ormqr linalg_spectral OPS.KERNELS meta_aware -
638 640 642 636 637 639 641 643|199 logspace logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS;200 logspace.Tensor_Tensor logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS;201 logspace.Tensor_Scalar logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS;202 logspace.Scalar_Tensor logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS;970 logspace.out logspace_ops OPS.COMPOSITE composite -;971 logspace.Tensor_Tensor_out logspace_ops OPS.COMPOSITE composite -;972 logspace.Tensor_Scalar_out logspace_ops OPS.COMPOSITE composite -;973 logspace.Scalar_Tensor_out logspace_ops OPS.COMPOSITE composite -
645 646 647 644|203 linspace logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS;204 linspace.Tensor_Tensor logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS;205 linspace.Tensor_Scalar logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS;206 linspace.Scalar_Tensor logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS
648|207 binary_cross_entropy loss_ops KERNELS proxy -
649|208 binary_cross_entropy_with_logits loss_ops KERNELS proxy -
650|209 nll_loss_forward loss_ops KERNELS proxy -
651|210 nll_loss2d_forward loss_ops KERNELS proxy -
652|974 nll_loss loss_ops COMPOSITE composite -
653|975 nll_loss2d loss_ops COMPOSITE composite -
654|976 nll_loss_nd loss_ops COMPOSITE composite -
655|977 cross_entropy_loss loss_ops COMPOSITE composite -
656|978 kl_div loss_ops COMPOSITE composite -
657|979 l1_loss loss_ops COMPOSITE composite -
658|211 smooth_l1_loss loss_ops KERNELS proxy -
659|212 mse_loss loss_ops KERNELS proxy -
660|213 huber_loss loss_ops KERNELS proxy -
661|214 soft_margin_loss loss_ops KERNELS proxy -
662|980 poisson_nll_loss loss_ops COMPOSITE composite -
663|981 hinge_embedding_loss loss_ops COMPOSITE composite -
664|982 margin_ranking_loss loss_ops COMPOSITE composite -
665|983 cosine_embedding_loss loss_ops COMPOSITE composite -
666|215 multi_margin_loss loss_ops KERNELS proxy -
667|984 multilabel_margin_loss loss_ops COMPOSITE composite -
668|216 multilabel_margin_loss_forward loss_ops KERNELS proxy -
669|986 triplet_margin_loss loss_ops COMPOSITE composite -
670|985 pairwise_distance loss_ops COMPOSITE composite -
671 1194|217 atan2 math_ops KERNELS pointwise -;1194 atan2.out out_variants EXPLICIT explicit -
672|230 atan2_ math_ops KERNELS inplace -
673 1197|218 hypot math_ops KERNELS pointwise -;1197 hypot.out out_variants EXPLICIT explicit -
674|231 hypot_ math_ops KERNELS inplace -
675 1174|219 logaddexp math_ops KERNELS pointwise -;1174 logaddexp.out out_variants EXPLICIT explicit -
676 677 1163|220 copysign.Tensor math_ops KERNELS pointwise -;221 copysign.Scalar math_ops KERNELS pointwise -;1163 copysign.out out_variants EXPLICIT explicit -
678 679|232 copysign_.Tensor math_ops KERNELS inplace -;233 copysign_.Scalar math_ops KERNELS inplace -
680 1184|222 heaviside math_ops KERNELS pointwise -;1184 heaviside.out out_variants EXPLICIT explicit -
681|234 heaviside_ math_ops KERNELS inplace -
682 1180|223 sinc math_ops KERNELS pointwise -;1180 sinc.out out_variants EXPLICIT explicit -
683|235 sinc_ math_ops KERNELS inplace -
684 686 685 1175|224 xlogy.Tensor math_ops KERNELS pointwise -;225 xlogy.Scalar_Other math_ops KERNELS pointwise -;226 xlogy.Scalar_Self math_ops KERNELS pointwise -;1175 xlogy.OutTensor out_variants EXPLICIT explicit -
687 688|236 xlogy_.Tensor math_ops KERNELS inplace -;237 xlogy_.Scalar_Other math_ops KERNELS inplace -
689 1169|227 frac math_ops KERNELS pointwise -;1169 frac.out out_variants EXPLICIT explicit -
690|238 frac_ math_ops KERNELS inplace -
691 1162|228 sgn math_ops KERNELS pointwise -;1162 sgn.out out_variants EXPLICIT explicit -
692|239 sgn_ math_ops KERNELS inplace -
694 695|240 lerp_.Tensor math_ops KERNELS inplace -;253 lerp_.Scalar math_ops KERNELS inplace -
696|241 trunc_ math_ops KERNELS inplace -
697|242 floor_ math_ops KERNELS inplace -
698|243 ceil_ math_ops KERNELS inplace -
699 700|244 round_ math_ops KERNELS inplace -;262 round_.decimals math_ops KERNELS inplace -
701|245 reciprocal_ math_ops KERNELS inplace -
702|246 rsqrt_ math_ops KERNELS inplace -
703|247 square_ math_ops KERNELS inplace -
704|248 log2_ math_ops KERNELS inplace -
705|249 log10_ math_ops KERNELS inplace -
706|250 log1p_ math_ops KERNELS inplace -
707|251 tan_ math_ops KERNELS inplace -
708|252 erf_ math_ops KERNELS inplace -
709 763|254 clamp_min_ math_ops KERNELS inplace -;397 clamp_min_.Tensor pointwise OPS.KERNELS inplace -
710|257 exp2_ math_ops KERNELS inplace -
712 711|258 fmod_.Scalar math_ops KERNELS inplace -;259 fmod_.Tensor math_ops KERNELS inplace -
713|260 tril_ math_ops KERNELS inplace -
714|261 triu_ math_ops KERNELS inplace -
715 765|255 clamp_max_ math_ops KERNELS inplace -;399 clamp_max_.Tensor pointwise OPS.KERNELS inplace -
716|256 nan_to_num_ math_ops KERNELS inplace -
717 1277|263 logaddexp2 math_ops OPS.KERNELS pointwise -;1277 logaddexp2.out out_variants EXPLICIT explicit -
718|280 gelu_backward nn_ops KERNELS pointwise -
719|281 silu_backward nn_ops KERNELS pointwise -
720|287 native_batch_norm norm_ops KERNELS proxy -
721 722|288 _native_batch_norm_legit norm_ops KERNELS proxy -;289 _native_batch_norm_legit.no_stats norm_ops KERNELS proxy -
723|290 _native_batch_norm_legit_no_training norm_ops KERNELS proxy -
724|291 _batch_norm_with_update norm_ops KERNELS proxy -
725|292 _batch_norm_no_update norm_ops KERNELS proxy -
726|988 batch_norm norm_ops COMPOSITE composite -
727|989 instance_norm norm_ops COMPOSITE composite -
728|293 native_group_norm norm_ops KERNELS proxy -
729|990 group_norm norm_ops COMPOSITE composite -
730|294 native_layer_norm norm_ops KERNELS proxy -
731|295 native_layer_norm_backward norm_ops KERNELS proxy -
732 1231|296 linalg_vector_norm norms OPS.KERNELS own_meta norms.OPS.META_KERNELS;1231 linalg_vector_norm.out out_variants EXPLICIT explicit -
733 734|992 linalg_matrix_norm norms OPS.COMPOSITE composite -;993 linalg_matrix_norm.str_ord norms OPS.COMPOSITE composite -
735 736|994 linalg_norm norms OPS.COMPOSITE composite -;995 linalg_norm.ord_str norms OPS.COMPOSITE composite -
737 1278|297 gcd numeric_ops OPS.KERNELS pointwise -;1278 gcd.out out_variants EXPLICIT explicit -
738|298 gcd_ numeric_ops OPS.KERNELS inplace -
739 1279|299 lcm numeric_ops OPS.KERNELS pointwise -;1279 lcm.out out_variants EXPLICIT explicit -
740|300 lcm_ numeric_ops OPS.KERNELS inplace -
741 1280|301 ldexp.Tensor numeric_ops OPS.KERNELS pointwise -;1280 ldexp.out out_variants EXPLICIT explicit -
742|302 ldexp_ numeric_ops OPS.KERNELS inplace -
743|303 frexp.Tensor numeric_ops OPS.KERNELS own_meta numeric_ops.OPS.META_KERNELS
744 1281|304 nextafter numeric_ops OPS.KERNELS pointwise -;1281 nextafter.out out_variants EXPLICIT explicit -
745|305 nextafter_ numeric_ops OPS.KERNELS inplace -
746 747 748 1282 1284 1283|996 float_power.Tensor_Tensor numeric_ops OPS.COMPOSITE composite -;997 float_power.Tensor_Scalar numeric_ops OPS.COMPOSITE composite -;998 float_power.Scalar numeric_ops OPS.COMPOSITE composite -;1282 float_power.Tensor_Tensor_out out_variants EXPLICIT explicit -;1283 float_power.Tensor_Scalar_out out_variants EXPLICIT explicit -;1284 float_power.Scalar_out out_variants EXPLICIT explicit -
750 749|999 float_power_.Scalar numeric_ops OPS.COMPOSITE composite -;1000 float_power_.Tensor numeric_ops OPS.COMPOSITE composite -
751|1001 positive numeric_ops OPS.COMPOSITE composite -
752|306 put placement_ops OPS.KERNELS own_meta placement_ops.OPS.META_KERNELS
753|307 put_ placement_ops OPS.KERNELS inplace -
754|308 masked_scatter placement_ops OPS.KERNELS own_meta placement_ops.OPS.META_KERNELS
755|309 masked_scatter_ placement_ops OPS.KERNELS inplace -
756|310 masked_scatter_backward placement_ops OPS.KERNELS own_meta placement_ops.OPS.META_KERNELS
757|311 _unsafe_masked_index placement_ops OPS.KERNELS meta_aware -
758|312 _unsafe_masked_index_put_accumulate placement_ops OPS.KERNELS meta_aware -
759 1285|313 nonzero_static placement_ops OPS.KERNELS own_meta placement_ops.OPS.META_KERNELS;1285 nonzero_static.out out_variants EXPLICIT explicit -
760 1286|314 _chunk_cat placement_ops OPS.KERNELS meta_aware -;1286 _chunk_cat.out out_variants EXPLICIT explicit -
761 1287|315 hash_tensor placement_ops OPS.KERNELS own_meta placement_ops.OPS.META_KERNELS;1287 hash_tensor.out out_variants EXPLICIT explicit -
767|1002 max_pool1d_with_indices pool_ops OPS.COMPOSITE composite -
768|1003 max_pool1d pool_ops OPS.COMPOSITE composite -
769|1004 max_pool2d pool_ops OPS.COMPOSITE composite -
770|1005 max_pool3d pool_ops OPS.COMPOSITE composite -
771|401 max_pool2d_with_indices pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
772|402 max_pool3d_with_indices pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
773|403 max_pool2d_with_indices_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
774|404 max_pool3d_with_indices_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
775|1006 avg_pool1d pool_ops OPS.COMPOSITE composite -
776|405 avg_pool2d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
777|406 avg_pool3d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
778|407 avg_pool2d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
779|408 avg_pool3d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
780|1007 adaptive_avg_pool1d pool_ops OPS.COMPOSITE composite -
781|1008 adaptive_avg_pool2d pool_ops OPS.COMPOSITE composite -
782|1009 adaptive_avg_pool3d pool_ops OPS.COMPOSITE composite -
783|409 _adaptive_avg_pool2d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
784|410 _adaptive_avg_pool3d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
785|411 _adaptive_avg_pool2d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
786|412 _adaptive_avg_pool3d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
787|1010 adaptive_max_pool1d pool_ops OPS.COMPOSITE composite -
788|413 adaptive_max_pool2d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
789|414 adaptive_max_pool3d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
790|415 adaptive_max_pool2d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
791|416 adaptive_max_pool3d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
792|417 fractional_max_pool2d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
793|418 fractional_max_pool3d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
794|419 fractional_max_pool2d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
795|420 fractional_max_pool3d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
796|421 max_unpool2d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
797|422 max_unpool3d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
798 1290|423 vdot products OPS.KERNELS proxy -;1290 vdot.out out_variants EXPLICIT explicit -
799|1011 tensordot products OPS.COMPOSITE composite -
800 1291|1012 inner products OPS.COMPOSITE composite -;1291 inner.out out_variants EXPLICIT explicit -
801|424 cauchy_ random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS
802|425 exponential_ random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS
803|426 log_normal_ random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS
804|427 geometric_ random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS
805 1292 806|428 bernoulli random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;429 bernoulli.p random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;1292 bernoulli.out out_variants EXPLICIT explicit -
807 808|430 bernoulli_.Tensor random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;431 bernoulli_.float random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS
809 810 811|432 random_.from random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;433 random_.to random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;434 random_ random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS
812 814 816 813 815 817|435 randint_like random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;436 randint_like.generator random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;437 randint_like.Tensor random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;438 randint_like.Tensor_generator random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;439 randint_like.low_dtype random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;440 randint_like.low_generator_dtype random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS
818 819|441 multinomial random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;442 multinomial.out random_ops OPS.KERNELS meta_aware -
820 1293 1294 821 822 1295 823 824|443 normal.Tensor_float random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;444 normal.float_Tensor random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;445 normal.Tensor_Tensor random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;446 normal.float_float random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;447 normal.float_float_out random_ops OPS.KERNELS meta_aware -;1293 normal.Tensor_float_out out_variants EXPLICIT explicit -;1294 normal.float_Tensor_out out_variants EXPLICIT explicit -;1295 normal.Tensor_Tensor_out out_variants EXPLICIT explicit -
825 1181|448 nansum reduce_ops KERNELS reduction -;1181 nansum.out out_variants EXPLICIT explicit -
826 1178|449 nanmean reduce_ops KERNELS reduction -;1178 nanmean.out out_variants EXPLICIT explicit -
827 1249|450 cummax reduce_ops KERNELS reduction -;1249 cummax.out out_variants EXPLICIT explicit -
828 1250|451 cummin reduce_ops KERNELS reduction -;1250 cummin.out out_variants EXPLICIT explicit -
829 830 1255|452 median reduce_ops KERNELS reduction -;453 median.dim reduce_ops KERNELS reduction -;1255 median.dim_values out_variants EXPLICIT explicit -
831 1259|454 mode reduce_ops KERNELS reduction -;1259 mode.values out_variants EXPLICIT explicit -
833 832 834|1013 var_mean.correction reduce_ops COMPOSITE composite -;1014 var_mean.dim reduce_ops COMPOSITE composite -;1015 var_mean reduce_ops COMPOSITE composite -
836 835 837|1016 std_mean.correction reduce_ops COMPOSITE composite -;1017 std_mean.dim reduce_ops COMPOSITE composite -;1018 std_mean reduce_ops COMPOSITE composite -
838|455 cumprod_ reduce_ops KERNELS inplace -
839|456 cumsum_ reduce_ops KERNELS inplace -
840|486 resize_ resize_ops OPS.KERNELS meta_aware -
841|487 resize_as_ resize_ops OPS.KERNELS meta_aware -
842 843|488 upsample_nearest1d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1019 upsample_nearest1d.vec sample_ops OPS.COMPOSITE composite -
844 845|489 upsample_nearest2d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1020 upsample_nearest2d.vec sample_ops OPS.COMPOSITE composite -
846 847|490 upsample_nearest3d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1021 upsample_nearest3d.vec sample_ops OPS.COMPOSITE composite -
848 849|491 _upsample_nearest_exact1d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1022 _upsample_nearest_exact1d.vec sample_ops OPS.COMPOSITE composite -
850 851|492 _upsample_nearest_exact2d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1023 _upsample_nearest_exact2d.vec sample_ops OPS.COMPOSITE composite -
852 853|493 _upsample_nearest_exact3d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1024 _upsample_nearest_exact3d.vec sample_ops OPS.COMPOSITE composite -
854 855|494 upsample_linear1d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1025 upsample_linear1d.vec sample_ops OPS.COMPOSITE composite -
856 857|495 upsample_bilinear2d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1026 upsample_bilinear2d.vec sample_ops OPS.COMPOSITE composite -
858 859|496 upsample_trilinear3d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1027 upsample_trilinear3d.vec sample_ops OPS.COMPOSITE composite -
860 861|497 upsample_bicubic2d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1028 upsample_bicubic2d.vec sample_ops OPS.COMPOSITE composite -
862 863|498 _upsample_bilinear2d_aa sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1029 _upsample_bilinear2d_aa.vec sample_ops OPS.COMPOSITE composite -
864 865|499 _upsample_bicubic2d_aa sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1030 _upsample_bicubic2d_aa.vec sample_ops OPS.COMPOSITE composite -
866|500 upsample_nearest1d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
867|501 upsample_nearest2d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
868|502 upsample_nearest3d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
869|503 _upsample_nearest_exact1d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
870|504 _upsample_nearest_exact2d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
871|505 _upsample_nearest_exact3d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
872|506 upsample_linear1d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
873|507 upsample_bilinear2d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
874|508 upsample_trilinear3d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
875|509 upsample_bicubic2d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
876|510 _upsample_bilinear2d_aa_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
877|511 _upsample_bicubic2d_aa_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
878|1031 grid_sampler sample_ops OPS.COMPOSITE composite -
879|512 grid_sampler_2d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
880|513 grid_sampler_3d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
881|514 grid_sampler_2d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
882|515 grid_sampler_3d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
883|516 scalar_tensor scalar_tensor_op OPS.KERNELS own_meta scalar_tensor_op.OPS.META_KERNELS
884 1296|517 addmm scaled_ops OPS.KERNELS proxy -;1296 addmm.out out_variants EXPLICIT explicit -
885 1297|518 addmv scaled_ops OPS.KERNELS proxy -;1297 addmv.out out_variants EXPLICIT explicit -
886 1298|519 addr scaled_ops OPS.KERNELS proxy -;1298 addr.out out_variants EXPLICIT explicit -
887|520 addr_ scaled_ops OPS.KERNELS inplace -
888 1299|521 addbmm scaled_ops OPS.KERNELS proxy -;1299 addbmm.out out_variants EXPLICIT explicit -
889 1300|522 baddbmm scaled_ops OPS.KERNELS proxy -;1300 baddbmm.out out_variants EXPLICIT explicit -
890 1301|523 addcmul scaled_ops OPS.KERNELS pointwise -;1301 addcmul.out out_variants EXPLICIT explicit -
891|524 addcmul_ scaled_ops OPS.KERNELS inplace -
892 1302|525 addcdiv scaled_ops OPS.KERNELS pointwise -;1302 addcdiv.out out_variants EXPLICIT explicit -
893|526 addcdiv_ scaled_ops OPS.KERNELS inplace -
894|527 addmm_ scaled_ops OPS.KERNELS inplace -
895|528 addmv_ scaled_ops OPS.KERNELS inplace -
896|529 addbmm_ scaled_ops OPS.KERNELS inplace -
897|530 baddbmm_ scaled_ops OPS.KERNELS inplace -
898 1303|570 digamma special_ops OPS.KERNELS pointwise -;1303 digamma.out out_variants EXPLICIT explicit -
899|571 digamma_ special_ops OPS.KERNELS inplace -
900 1304|572 lgamma special_ops OPS.KERNELS pointwise -;1304 lgamma.out out_variants EXPLICIT explicit -
901|573 lgamma_ special_ops OPS.KERNELS inplace -
902 1305|574 erfc special_ops OPS.KERNELS pointwise -;1305 erfc.out out_variants EXPLICIT explicit -
903|575 erfc_ special_ops OPS.KERNELS inplace -
904 1306|576 erfinv special_ops OPS.KERNELS pointwise -;1306 erfinv.out out_variants EXPLICIT explicit -
905|577 erfinv_ special_ops OPS.KERNELS inplace -
906 1307|578 i0 special_ops OPS.KERNELS pointwise -;1307 i0.out out_variants EXPLICIT explicit -
907|579 i0_ special_ops OPS.KERNELS inplace -
908 1308|580 special_i0e special_ops OPS.KERNELS pointwise -;1308 special_i0e.out out_variants EXPLICIT explicit -
909 1309|581 special_i1 special_ops OPS.KERNELS pointwise -;1309 special_i1.out out_variants EXPLICIT explicit -
910 1310|582 special_i1e special_ops OPS.KERNELS pointwise -;1310 special_i1e.out out_variants EXPLICIT explicit -
911 1311|583 special_entr special_ops OPS.KERNELS pointwise -;1311 special_entr.out out_variants EXPLICIT explicit -
912 1312|584 special_erfcx special_ops OPS.KERNELS pointwise -;1312 special_erfcx.out out_variants EXPLICIT explicit -
913 1313|585 special_ndtri special_ops OPS.KERNELS pointwise -;1313 special_ndtri.out out_variants EXPLICIT explicit -
914 1314|586 special_log_ndtr special_ops OPS.KERNELS pointwise -;1314 special_log_ndtr.out out_variants EXPLICIT explicit -
915 1315|587 special_airy_ai special_ops OPS.KERNELS pointwise -;1315 special_airy_ai.out out_variants EXPLICIT explicit -
916 1316|588 special_bessel_j0 special_ops OPS.KERNELS pointwise -;1316 special_bessel_j0.out out_variants EXPLICIT explicit -
917 1317|589 special_bessel_j1 special_ops OPS.KERNELS pointwise -;1317 special_bessel_j1.out out_variants EXPLICIT explicit -
918 1318|590 special_bessel_y0 special_ops OPS.KERNELS pointwise -;1318 special_bessel_y0.out out_variants EXPLICIT explicit -
919 1319|591 special_bessel_y1 special_ops OPS.KERNELS pointwise -;1319 special_bessel_y1.out out_variants EXPLICIT explicit -
920 1320|592 special_modified_bessel_i0 special_ops OPS.KERNELS pointwise -;1320 special_modified_bessel_i0.out out_variants EXPLICIT explicit -
921 1321|593 special_modified_bessel_i1 special_ops OPS.KERNELS pointwise -;1321 special_modified_bessel_i1.out out_variants EXPLICIT explicit -
922 1322|594 special_modified_bessel_k0 special_ops OPS.KERNELS pointwise -;1322 special_modified_bessel_k0.out out_variants EXPLICIT explicit -
923 1323|595 special_modified_bessel_k1 special_ops OPS.KERNELS pointwise -;1323 special_modified_bessel_k1.out out_variants EXPLICIT explicit -
924 1324|596 special_scaled_modified_bessel_k0 special_ops OPS.KERNELS pointwise -;1324 special_scaled_modified_bessel_k0.out out_variants EXPLICIT explicit -
925 1325|597 special_scaled_modified_bessel_k1 special_ops OPS.KERNELS pointwise -;1325 special_scaled_modified_bessel_k1.out out_variants EXPLICIT explicit -
926 1326|598 special_spherical_bessel_j0 special_ops OPS.KERNELS pointwise -;1326 special_spherical_bessel_j0.out out_variants EXPLICIT explicit -
927 1327|599 polygamma special_ops OPS.KERNELS pointwise -;1327 polygamma.out out_variants EXPLICIT explicit -
928|600 polygamma_ special_ops OPS.KERNELS inplace -
929 1328|601 mvlgamma special_ops OPS.KERNELS pointwise -;1328 mvlgamma.out out_variants EXPLICIT explicit -
930|602 mvlgamma_ special_ops OPS.KERNELS inplace -
931 1329|603 igamma special_ops OPS.KERNELS pointwise -;1329 igamma.out out_variants EXPLICIT explicit -
932|604 igamma_ special_ops OPS.KERNELS inplace -
933 1330|605 igammac special_ops OPS.KERNELS pointwise -;1330 igammac.out out_variants EXPLICIT explicit -
934|606 igammac_ special_ops OPS.KERNELS inplace -
935 937 936 1331 1332 1333|607 special_xlog1py special_ops OPS.KERNELS pointwise -;608 special_xlog1py.self_scalar special_ops OPS.KERNELS pointwise -;609 special_xlog1py.other_scalar special_ops OPS.KERNELS pointwise -;1331 special_xlog1py.out out_variants EXPLICIT explicit -;1332 special_xlog1py.self_scalar_out out_variants EXPLICIT explicit -;1333 special_xlog1py.other_scalar_out out_variants EXPLICIT explicit -
938 940 939 1334 1335 1336|610 special_zeta special_ops OPS.KERNELS pointwise -;611 special_zeta.self_scalar special_ops OPS.KERNELS pointwise -;612 special_zeta.other_scalar special_ops OPS.KERNELS pointwise -;1334 special_zeta.out out_variants EXPLICIT explicit -;1335 special_zeta.self_scalar_out out_variants EXPLICIT explicit -;1336 special_zeta.other_scalar_out out_variants EXPLICIT explicit -
941 1337 942 1338 943 1339|613 special_chebyshev_polynomial_t special_ops OPS.KERNELS pointwise -;614 special_chebyshev_polynomial_t.x_scalar special_ops OPS.KERNELS pointwise -;615 special_chebyshev_polynomial_t.n_scalar special_ops OPS.KERNELS pointwise -;1337 special_chebyshev_polynomial_t.out out_variants EXPLICIT explicit -;1338 special_chebyshev_polynomial_t.x_scalar_out out_variants EXPLICIT explicit -;1339 special_chebyshev_polynomial_t.n_scalar_out out_variants EXPLICIT explicit -
944 1340 945 1341 946 1342|616 special_chebyshev_polynomial_u special_ops OPS.KERNELS pointwise -;617 special_chebyshev_polynomial_u.x_scalar special_ops OPS.KERNELS pointwise -;618 special_chebyshev_polynomial_u.n_scalar special_ops OPS.KERNELS pointwise -;1340 special_chebyshev_polynomial_u.out out_variants EXPLICIT explicit -;1341 special_chebyshev_polynomial_u.x_scalar_out out_variants EXPLICIT explicit -;1342 special_chebyshev_polynomial_u.n_scalar_out out_variants EXPLICIT explicit -
947 1343 948 1344 949 1345|619 special_chebyshev_polynomial_v special_ops OPS.KERNELS pointwise -;620 special_chebyshev_polynomial_v.x_scalar special_ops OPS.KERNELS pointwise -;621 special_chebyshev_polynomial_v.n_scalar special_ops OPS.KERNELS pointwise -;1343 special_chebyshev_polynomial_v.out out_variants EXPLICIT explicit -;1344 special_chebyshev_polynomial_v.x_scalar_out out_variants EXPLICIT explicit -;1345 special_chebyshev_polynomial_v.n_scalar_out out_variants EXPLICIT explicit -
950 1346 951 1347 952 1348|622 special_chebyshev_polynomial_w special_ops OPS.KERNELS pointwise -;623 special_chebyshev_polynomial_w.x_scalar special_ops OPS.KERNELS pointwise -;624 special_chebyshev_polynomial_w.n_scalar special_ops OPS.KERNELS pointwise -;1346 special_chebyshev_polynomial_w.out out_variants EXPLICIT explicit -;1347 special_chebyshev_polynomial_w.x_scalar_out out_variants EXPLICIT explicit -;1348 special_chebyshev_polynomial_w.n_scalar_out out_variants EXPLICIT explicit -
953 1349 954 1350 955 1351|625 special_shifted_chebyshev_polynomial_t special_ops OPS.KERNELS pointwise -;626 special_shifted_chebyshev_polynomial_t.x_scalar special_ops OPS.KERNELS pointwise -;627 special_shifted_chebyshev_polynomial_t.n_scalar special_ops OPS.KERNELS pointwise -;1349 special_shifted_chebyshev_polynomial_t.out out_variants EXPLICIT explicit -;1350 special_shifted_chebyshev_polynomial_t.x_scalar_out out_variants EXPLICIT explicit -;1351 special_shifted_chebyshev_polynomial_t.n_scalar_out out_variants EXPLICIT explicit -
956 1352 957 1353 958 1354|628 special_shifted_chebyshev_polynomial_u special_ops OPS.KERNELS pointwise -;629 special_shifted_chebyshev_polynomial_u.x_scalar special_ops OPS.KERNELS pointwise -;630 special_shifted_chebyshev_polynomial_u.n_scalar special_ops OPS.KERNELS pointwise -;1352 special_shifted_chebyshev_polynomial_u.out out_variants EXPLICIT explicit -;1353 special_shifted_chebyshev_polynomial_u.x_scalar_out out_variants EXPLICIT explicit -;1354 special_shifted_chebyshev_polynomial_u.n_scalar_out out_variants EXPLICIT explicit -
959 1355 960 1356 961 1357|631 special_shifted_chebyshev_polynomial_v special_ops OPS.KERNELS pointwise -;632 special_shifted_chebyshev_polynomial_v.x_scalar special_ops OPS.KERNELS pointwise -;633 special_shifted_chebyshev_polynomial_v.n_scalar special_ops OPS.KERNELS pointwise -;1355 special_shifted_chebyshev_polynomial_v.out out_variants EXPLICIT explicit -;1356 special_shifted_chebyshev_polynomial_v.x_scalar_out out_variants EXPLICIT explicit -;1357 special_shifted_chebyshev_polynomial_v.n_scalar_out out_variants EXPLICIT explicit -
962 1358 963 1359 964 1360|634 special_shifted_chebyshev_polynomial_w special_ops OPS.KERNELS pointwise -;635 special_shifted_chebyshev_polynomial_w.x_scalar special_ops OPS.KERNELS pointwise -;636 special_shifted_chebyshev_polynomial_w.n_scalar special_ops OPS.KERNELS pointwise -;1358 special_shifted_chebyshev_polynomial_w.out out_variants EXPLICIT explicit -;1359 special_shifted_chebyshev_polynomial_w.x_scalar_out out_variants EXPLICIT explicit -;1360 special_shifted_chebyshev_polynomial_w.n_scalar_out out_variants EXPLICIT explicit -
965 1361 966 1362 967 1363|637 special_hermite_polynomial_h special_ops OPS.KERNELS pointwise -;638 special_hermite_polynomial_h.x_scalar special_ops OPS.KERNELS pointwise -;639 special_hermite_polynomial_h.n_scalar special_ops OPS.KERNELS pointwise -;1361 special_hermite_polynomial_h.out out_variants EXPLICIT explicit -;1362 special_hermite_polynomial_h.x_scalar_out out_variants EXPLICIT explicit -;1363 special_hermite_polynomial_h.n_scalar_out out_variants EXPLICIT explicit -
968 1364 969 1365 970 1366|640 special_hermite_polynomial_he special_ops OPS.KERNELS pointwise -;641 special_hermite_polynomial_he.x_scalar special_ops OPS.KERNELS pointwise -;642 special_hermite_polynomial_he.n_scalar special_ops OPS.KERNELS pointwise -;1364 special_hermite_polynomial_he.out out_variants EXPLICIT explicit -;1365 special_hermite_polynomial_he.x_scalar_out out_variants EXPLICIT explicit -;1366 special_hermite_polynomial_he.n_scalar_out out_variants EXPLICIT explicit -
971 1367 972 1368 973 1369|643 special_laguerre_polynomial_l special_ops OPS.KERNELS pointwise -;644 special_laguerre_polynomial_l.x_scalar special_ops OPS.KERNELS pointwise -;645 special_laguerre_polynomial_l.n_scalar special_ops OPS.KERNELS pointwise -;1367 special_laguerre_polynomial_l.out out_variants EXPLICIT explicit -;1368 special_laguerre_polynomial_l.x_scalar_out out_variants EXPLICIT explicit -;1369 special_laguerre_polynomial_l.n_scalar_out out_variants EXPLICIT explicit -
974 1370 975 1371 976 1372|646 special_legendre_polynomial_p special_ops OPS.KERNELS pointwise -;647 special_legendre_polynomial_p.x_scalar special_ops OPS.KERNELS pointwise -;648 special_legendre_polynomial_p.n_scalar special_ops OPS.KERNELS pointwise -;1370 special_legendre_polynomial_p.out out_variants EXPLICIT explicit -;1371 special_legendre_polynomial_p.x_scalar_out out_variants EXPLICIT explicit -;1372 special_legendre_polynomial_p.n_scalar_out out_variants EXPLICIT explicit -
977 1373|1039 special_psi special_ops OPS.COMPOSITE composite -;1373 special_psi.out out_variants EXPLICIT explicit -
978 1374|1040 special_digamma special_ops OPS.COMPOSITE composite -;1374 special_digamma.out out_variants EXPLICIT explicit -
979 1375|1041 special_gammaln special_ops OPS.COMPOSITE composite -;1375 special_gammaln.out out_variants EXPLICIT explicit -
980 1376|1042 special_erf special_ops OPS.COMPOSITE composite -;1376 special_erf.out out_variants EXPLICIT explicit -
981 1377|1043 special_erfc special_ops OPS.COMPOSITE composite -;1377 special_erfc.out out_variants EXPLICIT explicit -
982 1378|1044 special_erfinv special_ops OPS.COMPOSITE composite -;1378 special_erfinv.out out_variants EXPLICIT explicit -
983 1379|1045 special_i0 special_ops OPS.COMPOSITE composite -;1379 special_i0.out out_variants EXPLICIT explicit -
984 1380|1046 special_expit special_ops OPS.COMPOSITE composite -;1380 special_expit.out out_variants EXPLICIT explicit -
985 1381|1047 special_exp2 special_ops OPS.COMPOSITE composite -;1381 special_exp2.out out_variants EXPLICIT explicit -
986 1382|1048 special_expm1 special_ops OPS.COMPOSITE composite -;1382 special_expm1.out out_variants EXPLICIT explicit -
987 1383|1049 special_log1p special_ops OPS.COMPOSITE composite -;1383 special_log1p.out out_variants EXPLICIT explicit -
988 1384|1050 special_sinc special_ops OPS.COMPOSITE composite -;1384 special_sinc.out out_variants EXPLICIT explicit -
989 1385|1051 special_logit special_ops OPS.COMPOSITE composite -;1385 special_logit.out out_variants EXPLICIT explicit -
990 1386|1052 special_round special_ops OPS.COMPOSITE composite -;1386 special_round.out out_variants EXPLICIT explicit -
991 993 992 1387 1388 1389|1053 special_xlogy special_ops OPS.COMPOSITE composite -;1054 special_xlogy.self_scalar special_ops OPS.COMPOSITE composite -;1055 special_xlogy.other_scalar special_ops OPS.COMPOSITE composite -;1387 special_xlogy.out out_variants EXPLICIT explicit -;1388 special_xlogy.self_scalar_out out_variants EXPLICIT explicit -;1389 special_xlogy.other_scalar_out out_variants EXPLICIT explicit -
994|1056 special_log_softmax special_ops OPS.COMPOSITE composite -
995|1057 special_softmax special_ops OPS.COMPOSITE composite -
996 1390|1058 special_logsumexp special_ops OPS.COMPOSITE composite -;1390 special_logsumexp.out out_variants EXPLICIT explicit -
997 1391|1059 special_gammainc special_ops OPS.COMPOSITE composite -;1391 special_gammainc.out out_variants EXPLICIT explicit -
998 1392|1060 special_gammaincc special_ops OPS.COMPOSITE composite -;1392 special_gammaincc.out out_variants EXPLICIT explicit -
999 1393|1061 special_polygamma special_ops OPS.COMPOSITE composite -;1393 special_polygamma.out out_variants EXPLICIT explicit -
1000 1394|1062 special_multigammaln special_ops OPS.COMPOSITE composite -;1394 special_multigammaln.out out_variants EXPLICIT explicit -
1001 1395|1063 special_ndtr special_ops OPS.COMPOSITE composite -;1395 special_ndtr.out out_variants EXPLICIT explicit -
1002 1396|649 _fft_c2c spectral OPS.KERNELS own_meta spectral.OPS.META_KERNELS;1396 _fft_c2c.out out_variants EXPLICIT explicit -
1003 1397|650 _fft_r2c spectral OPS.KERNELS own_meta spectral.OPS.META_KERNELS;1397 _fft_r2c.out out_variants EXPLICIT explicit -
1004 1398|651 _fft_c2r spectral OPS.KERNELS own_meta spectral.OPS.META_KERNELS;1398 _fft_c2r.out out_variants EXPLICIT explicit -
1005|1064 fft_fft spectral OPS.COMPOSITE composite -
1006|1065 fft_ifft spectral OPS.COMPOSITE composite -
1007|1066 fft_rfft spectral OPS.COMPOSITE composite -
1008|1067 fft_irfft spectral OPS.COMPOSITE composite -
1009|1068 fft_hfft spectral OPS.COMPOSITE composite -
1010|1069 fft_ihfft spectral OPS.COMPOSITE composite -
1011|1070 fft_fft2 spectral OPS.COMPOSITE composite -
1012|1071 fft_ifft2 spectral OPS.COMPOSITE composite -
1013|1072 fft_rfft2 spectral OPS.COMPOSITE composite -
1014|1073 fft_irfft2 spectral OPS.COMPOSITE composite -
1015|1074 fft_hfft2 spectral OPS.COMPOSITE composite -
1016|1075 fft_ihfft2 spectral OPS.COMPOSITE composite -
1017|1076 fft_fftn spectral OPS.COMPOSITE composite -
1018|1077 fft_ifftn spectral OPS.COMPOSITE composite -
1019|1078 fft_rfftn spectral OPS.COMPOSITE composite -
1020|1079 fft_irfftn spectral OPS.COMPOSITE composite -
1021|1080 fft_hfftn spectral OPS.COMPOSITE composite -
1022|1081 fft_ihfftn spectral OPS.COMPOSITE composite -
1023|1082 fft_fftshift spectral OPS.COMPOSITE composite -
1024|1083 fft_ifftshift spectral OPS.COMPOSITE composite -
1025|652 unfold_backward spectral OPS.KERNELS proxy -
1026 1027|1084 stft spectral OPS.COMPOSITE composite -;1085 stft.center spectral OPS.COMPOSITE composite -
1028|1086 istft spectral OPS.COMPOSITE composite -
1029|653 _unique2 statistics OPS.KERNELS data_dependent -
1030|654 _unique statistics OPS.KERNELS data_dependent -
1031|655 unique_dim statistics OPS.KERNELS data_dependent -
1032|656 unique_dim_consecutive statistics OPS.KERNELS data_dependent -
1033|657 unique_consecutive statistics OPS.KERNELS data_dependent -
1034|658 bincount statistics OPS.KERNELS data_dependent -
1035|659 _histogramdd_bin_edges statistics OPS.KERNELS proxy -
1036|660 _histogramdd_from_bin_cts statistics OPS.KERNELS proxy -
1037|661 _histogramdd_from_bin_tensors statistics OPS.KERNELS proxy -
1038 1039 1040|1087 histogramdd statistics OPS.COMPOSITE composite -;1088 histogramdd.int_bins statistics OPS.COMPOSITE composite -;1089 histogramdd.TensorList_bins statistics OPS.COMPOSITE composite -
1041 1257 1042 1258|662 histogram.bins_tensor statistics OPS.KERNELS proxy -;663 histogram.bin_ct statistics OPS.KERNELS proxy -;1257 histogram.bins_tensor_out out_variants EXPLICIT explicit -;1258 histogram.bin_ct_out out_variants EXPLICIT explicit -
1043 1399|664 histc statistics OPS.KERNELS proxy -;1399 histc.out out_variants EXPLICIT explicit -
1044 1045 1256|665 nanmedian statistics OPS.KERNELS proxy -;666 nanmedian.dim statistics OPS.KERNELS proxy -;1256 nanmedian.dim_values out_variants EXPLICIT explicit -
1046|667 _logcumsumexp statistics OPS.KERNELS proxy -
1047 1400|668 logcumsumexp statistics OPS.KERNELS proxy -;1400 logcumsumexp.out out_variants EXPLICIT explicit -
1048 1401|669 renorm statistics OPS.KERNELS proxy -;1401 renorm.out out_variants EXPLICIT explicit -
1049|670 renorm_ statistics OPS.KERNELS inplace -
1050|671 dist statistics OPS.KERNELS proxy -
1051|672 segment_reduce statistics OPS.KERNELS own_meta statistics.OPS.META_KERNELS
1052|673 _segment_reduce_backward statistics OPS.KERNELS own_meta statistics.OPS.META_KERNELS
1053 1402|1090 msort statistics OPS.COMPOSITE composite -;1402 msort.out out_variants EXPLICIT explicit -
1054 1055|1091 trapezoid.x statistics OPS.COMPOSITE composite -;1092 trapezoid.dx statistics OPS.COMPOSITE composite -
1056 1057|1093 trapz.x statistics OPS.COMPOSITE composite -;1094 trapz.dx statistics OPS.COMPOSITE composite -
1058 1059|1095 cumulative_trapezoid.x statistics OPS.COMPOSITE composite -;1096 cumulative_trapezoid.dx statistics OPS.COMPOSITE composite -
1060|1097 cov statistics OPS.COMPOSITE composite -
1061|1098 corrcoef statistics OPS.COMPOSITE composite -
1062 1063 1403 1404|1099 quantile statistics OPS.COMPOSITE composite -;1100 quantile.scalar statistics OPS.COMPOSITE composite -;1403 quantile.out out_variants EXPLICIT explicit -;1404 quantile.scalar_out out_variants EXPLICIT explicit -
1064 1065 1405 1406|1101 nanquantile statistics OPS.COMPOSITE composite -;1102 nanquantile.scalar statistics OPS.COMPOSITE composite -;1405 nanquantile.out out_variants EXPLICIT explicit -;1406 nanquantile.scalar_out out_variants EXPLICIT explicit -
1068 1069 1070 1071 1072 1066 1067|1103 gradient.tensorarrayint statistics OPS.COMPOSITE composite -;1104 gradient.tensorarray statistics OPS.COMPOSITE composite -;1105 gradient.scalarint statistics OPS.COMPOSITE composite -;1106 gradient.scalararray statistics OPS.COMPOSITE composite -;1107 gradient.array statistics OPS.COMPOSITE composite -;1108 gradient.scalarrayint statistics OPS.COMPOSITE composite -;1109 gradient.scalarrayarray statistics OPS.COMPOSITE composite -
1073|1110 is_nonzero surface_ops OPS.COMPOSITE composite -
1074|674 is_same_size surface_ops OPS.KERNELS meta_aware -
1075|675 is_signed surface_ops OPS.KERNELS meta_aware -
1076|676 is_pinned surface_ops OPS.KERNELS meta_aware -
1077|677 pin_memory surface_ops OPS.KERNELS meta_aware -
1078 1079|678 range.step surface_ops OPS.KERNELS own_meta surface_ops.OPS.META_KERNELS;679 range surface_ops OPS.KERNELS own_meta surface_ops.OPS.META_KERNELS
1080|1111 vander surface_ops OPS.COMPOSITE composite -
1081 1407|1112 chain_matmul surface_ops OPS.COMPOSITE composite -;1407 chain_matmul.out out_variants EXPLICIT explicit -
1082|1113 frobenius_norm.dim surface_ops OPS.COMPOSITE composite -
1083 1084|1114 nuclear_norm surface_ops OPS.COMPOSITE composite -;1115 nuclear_norm.dim surface_ops OPS.COMPOSITE composite -
1085|1116 negative_ surface_ops OPS.COMPOSITE composite -
1086|1117 fill_diagonal_ surface_ops OPS.COMPOSITE composite -
1087|680 slice_inverse surface_ops OPS.KERNELS own_meta surface_ops.OPS.META_KERNELS
1088 1233|681 asin trig_ops KERNELS pointwise -;1233 asin.out out_variants EXPLICIT explicit -
1089 1234|682 acos trig_ops KERNELS pointwise -;1234 acos.out out_variants EXPLICIT explicit -
1090 1235|683 atan trig_ops KERNELS pointwise -;1235 atan.out out_variants EXPLICIT explicit -
1091 1236|684 sinh trig_ops KERNELS pointwise -;1236 sinh.out out_variants EXPLICIT explicit -
1092 1237|685 cosh trig_ops KERNELS pointwise -;1237 cosh.out out_variants EXPLICIT explicit -
1093 1238|686 asinh trig_ops KERNELS pointwise -;1238 asinh.out out_variants EXPLICIT explicit -
1094 1239|687 acosh trig_ops KERNELS pointwise -;1239 acosh.out out_variants EXPLICIT explicit -
1095 1240|688 atanh trig_ops KERNELS pointwise -;1240 atanh.out out_variants EXPLICIT explicit -
1096 1241|689 deg2rad trig_ops KERNELS pointwise -;1241 deg2rad.out out_variants EXPLICIT explicit -
1097 1242|690 rad2deg trig_ops KERNELS pointwise -;1242 rad2deg.out out_variants EXPLICIT explicit -
1098|697 asin_ trig_ops KERNELS inplace -
1099|698 acos_ trig_ops KERNELS inplace -
1100|699 atan_ trig_ops KERNELS inplace -
1101|700 sinh_ trig_ops KERNELS inplace -
1102|701 cosh_ trig_ops KERNELS inplace -
1103|702 asinh_ trig_ops KERNELS inplace -
1104|703 acosh_ trig_ops KERNELS inplace -
1105|704 atanh_ trig_ops KERNELS inplace -
1106|705 deg2rad_ trig_ops KERNELS inplace -
1107|706 rad2deg_ trig_ops KERNELS inplace -
1108 1243|691 logit trig_ops KERNELS pointwise -;1243 logit.out out_variants EXPLICIT explicit -
1109|707 logit_ trig_ops KERNELS inplace -
1110 1244|692 signbit trig_ops KERNELS pointwise -;1244 signbit.out out_variants EXPLICIT explicit -
1111 1245|693 fmax trig_ops KERNELS pointwise -;1245 fmax.out out_variants EXPLICIT explicit -
1112 1246|694 fmin trig_ops KERNELS pointwise -;1246 fmin.out out_variants EXPLICIT explicit -
1113 1247|695 isposinf trig_ops KERNELS pointwise -;1247 isposinf.out out_variants EXPLICIT explicit -
1114 1248|696 isneginf trig_ops KERNELS pointwise -;1248 isneginf.out out_variants EXPLICIT explicit -
1115|749 _unsafe_view unsafe_view OPS.KERNELS proxy -
1116 1117|1118 hann_window window_functions OPS.COMPOSITE composite -;1119 hann_window.periodic window_functions OPS.COMPOSITE composite -
1118 1119 1126 1127|1120 hamming_window window_functions OPS.COMPOSITE composite -;1121 hamming_window.periodic window_functions OPS.COMPOSITE composite -;1128 hamming_window.periodic_alpha window_functions OPS.COMPOSITE composite -;1129 hamming_window.periodic_alpha_beta window_functions OPS.COMPOSITE composite -
1120 1121|1122 blackman_window window_functions OPS.COMPOSITE composite -;1123 blackman_window.periodic window_functions OPS.COMPOSITE composite -
1122 1123|1124 bartlett_window window_functions OPS.COMPOSITE composite -;1125 bartlett_window.periodic window_functions OPS.COMPOSITE composite -
1124 1125 1128|1126 kaiser_window window_functions OPS.COMPOSITE composite -;1127 kaiser_window.periodic window_functions OPS.COMPOSITE composite -;1130 kaiser_window.beta window_functions OPS.COMPOSITE composite -
1129 1130|750 randperm window_functions OPS.KERNELS own_meta window_functions.OPS.META_KERNELS;751 randperm.generator window_functions OPS.KERNELS own_meta window_functions.OPS.META_KERNELS"""

# Packets torch has as torch.<name> and as Tensor.<name> (variants.txt).
FUNCTIONS = (
    '_adaptive_avg_pool2d',
    '_adaptive_avg_pool3d',
    '_chunk_cat',
    '_conj',
    '_conj_physical',
    '_convolution',
    '_convolution_mode',
    '_ctc_loss',
    '_embedding_bag',
    '_embedding_bag_forward_only',
    '_euclidean_dist',
    '_fft_c2c',
    '_fft_c2r',
    '_fft_r2c',
    '_histogramdd_bin_edges',
    '_histogramdd_from_bin_cts',
    '_histogramdd_from_bin_tensors',
    '_linalg_det',
    '_linalg_eigh',
    '_linalg_slogdet',
    '_linalg_solve_ex',
    '_linalg_svd',
    '_log_softmax',
    '_log_softmax_backward_data',
    '_logcumsumexp',
    '_lu_with_info',
    '_native_batch_norm_legit',
    '_native_batch_norm_legit_no_training',
    '_prelu_kernel',
    '_safe_softmax',
    '_scaled_dot_product_attention_math',
    '_scaled_dot_product_flash_attention_for_cpu',
    '_softmax',
    '_softmax_backward_data',
    '_trilinear',
    '_unique',
    '_unique2',
    '_unsafe_masked_index',
    '_unsafe_masked_index_put_accumulate',
    'abs',
    'abs_',
    'acos',
    'acos_',
    'acosh',
    'acosh_',
    'adaptive_avg_pool1d',
    'adaptive_max_pool1d',
    'add',
    'addbmm',
    'addcdiv',
    'addcmul',
    'addmm',
    'addmv',
    'addmv_',
    'addr',
    'adjoint',
    'affine_grid_generator',
    'alias_copy',
    'all',
    'allclose',
    'alpha_dropout',
    'alpha_dropout_',
    'amax',
    'amin',
    'aminmax',
    'angle',
    'any',
    'arange',
    'arccos',
    'arccos_',
    'arccosh',
    'arccosh_',
    'arcsin',
    'arcsin_',
    'arcsinh',
    'arcsinh_',
    'arctan',
    'arctan2',
    'arctan_',
    'arctanh',
    'arctanh_',
    'argmax',
    'argmin',
    'argsort',
    'argwhere',
    'as_strided',
    'as_strided_copy',
    'as_strided_scatter',
    'asin',
    'asin_',
    'asinh',
    'asinh_',
    'atan',
    'atan2',
    'atan_',
    'atanh',
    'atanh_',
    'atleast_1d',
    'atleast_2d',
    'atleast_3d',
    'avg_pool1d',
    'baddbmm',
    'bartlett_window',
    'batch_norm',
    'bernoulli',
    'bilinear',
    'binary_cross_entropy_with_logits',
    'bincount',
    'binomial',
    'bitwise_and',
    'bitwise_left_shift',
    'bitwise_not',
    'bitwise_or',
    'bitwise_right_shift',
    'bitwise_xor',
    'blackman_window',
    'block_diag',
    'bmm',
    'broadcast_tensors',
    'broadcast_to',
    'bucketize',
    'cartesian_prod',
    'cat',
    'cdist',
    'ceil',
    'ceil_',
    'celu',
    'celu_',
    'chain_matmul',
    'channel_shuffle',
    'cholesky',
    'cholesky_inverse',
    'cholesky_solve',
    'chunk',
    'clamp',
    'clamp_',
    'clamp_max',
    'clamp_max_',
    'clamp_min',
    'clamp_min_',
    'clip',
    'clip_',
    'clone',
    'column_stack',
    'combinations',
    'complex',
    'conj',
    'conj_physical',
    'conj_physical_',
    'constant_pad_nd',
    'conv1d',
    'conv2d',
    'conv3d',
    'conv_transpose1d',
    'conv_transpose2d',
    'conv_transpose3d',
    'convolution',
    'copysign',
    'corrcoef',
    'cos',
    'cos_',
    'cosh',
    'cosh_',
    'cosine_embedding_loss',
    'cosine_similarity',
    'count_nonzero',
    'cov',
    'cross',
    'ctc_loss',
    'cummax',
    'cummin',
    'cumprod',
    'cumsum',
    'cumulative_trapezoid',
    'deg2rad',
    'deg2rad_',
    'det',
    'detach',
    'detach_',
    'detach_copy',
    'diag',
    'diag_embed',
    'diagflat',
    'diagonal',
    'diagonal_copy',
    'diagonal_scatter',
    'diff',
    'digamma',
    'dist',
    'div',
    'dot',
    'dropout',
    'dropout_',
    'dsplit',
    'dstack',
    'einsum',
    'embedding',
    'embedding_bag',
    'embedding_renorm_',
    'empty',
    'empty_like',
    'empty_permuted',
    'empty_strided',
    'eq',
    'equal',
    'erf',
    'erf_',
    'erfc',
    'erfc_',
    'erfinv',
    'exp',
    'exp2',
    'exp2_',
    'exp_',
    'expand_copy',
    'expm1',
    'expm1_',
    'eye',
    'feature_alpha_dropout',
    'feature_alpha_dropout_',
    'feature_dropout',
    'feature_dropout_',
    'fill',
    'fill_',
    'fix',
    'fix_',
    'flatten',
    'flip',
    'fliplr',
    'flipud',
    'float_power',
    'floor',
    'floor_',
    'floor_divide',
    'fmax',
    'fmin',
    'fmod',
    'frac',
    'frac_',
    'frexp',
    'frobenius_norm',
    'full',
    'full_like',
    'gather',
    'gcd',
    'gcd_',
    'ge',
    'geqrf',
    'ger',
    'gradient',
    'greater',
    'greater_equal',
    'grid_sampler',
    'grid_sampler_2d',
    'grid_sampler_3d',
    'group_norm',
    'gt',
    'hamming_window',
    'hann_window',
    'hardshrink',
    'hash_tensor',
    'heaviside',
    'hinge_embedding_loss',
    'histc',
    'histogram',
    'histogramdd',
    'hsplit',
    'hstack',
    'hypot',
    'i0',
    'i0_',
    'igamma',
    'igammac',
    'imag',
    'index_add',
    'index_copy',
    'index_fill',
    'index_put',
    'index_put_',
    'index_reduce',
    'index_select',
    'inner',
    'instance_norm',
    'inverse',
    'is_nonzero',
    'is_same_size',
    'is_signed',
    'isclose',
    'isfinite',
    'isin',
    'isinf',
    'isnan',
    'isneginf',
    'isposinf',
    'isreal',
    'istft',
    'kaiser_window',
    'kl_div',
    'kron',
    'kthvalue',
    'layer_norm',
    'lcm',
    'lcm_',
    'ldexp',
    'ldexp_',
    'le',
    'lerp',
    'less',
    'less_equal',
    'lgamma',
    'linspace',
    'log',
    'log10',
    'log10_',
    'log1p',
    'log1p_',
    'log2',
    'log2_',
    'log_',
    'log_softmax',
    'logaddexp',
    'logaddexp2',
    'logcumsumexp',
    'logdet',
    'logical_and',
    'logical_not',
    'logical_or',
    'logical_xor',
    'logit',
    'logit_',
    'logspace',
    'logsumexp',
    'lt',
    'lu_solve',
    'lu_unpack',
    'margin_ranking_loss',
    'masked_fill',
    'masked_scatter',
    'masked_select',
    'matmul',
    'matrix_exp',
    'matrix_power',
    'max',
    'max_pool1d',
    'max_pool1d_with_indices',
    'max_pool2d',
    'max_pool3d',
    'maximum',
    'mean',
    'median',
    'meshgrid',
    'min',
    'minimum',
    'mm',
    'mode',
    'moveaxis',
    'movedim',
    'msort',
    'mul',
    'multinomial',
    'mv',
    'mvlgamma',
    'nan_to_num',
    'nan_to_num_',
    'nanmean',
    'nanmedian',
    'nanquantile',
    'nansum',
    'narrow',
    'narrow_copy',
    'native_batch_norm',
    'native_channel_shuffle',
    'native_dropout',
    'native_group_norm',
    'native_layer_norm',
    'ne',
    'neg',
    'neg_',
    'negative_',
    'nextafter',
    'nonzero',
    'nonzero_static',
    'norm',
    'normal',
    'not_equal',
    'nuclear_norm',
    'numel',
    'ones',
    'ones_like',
    'orgqr',
    'ormqr',
    'outer',
    'pairwise_distance',
    'pdist',
    'permute',
    'permute_copy',
    'pinverse',
    'pixel_shuffle',
    'pixel_unshuffle',
    'poisson',
    'poisson_nll_loss',
    'polar',
    'polygamma',
    'positive',
    'pow',
    'prelu',
    'prod',
    'put',
    'quantile',
    'rad2deg',
    'rad2deg_',
    'rand',
    'rand_like',
    'randint',
    'randint_like',
    'randn',
    'randn_like',
    'randperm',
    'range',
    'ravel',
    'real',
    'reciprocal',
    'reciprocal_',
    'relu',
    'relu_',
    'remainder',
    'renorm',
    'repeat_interleave',
    'reshape',
    'resize_as_',
    'resolve_conj',
    'resolve_neg',
    'rms_norm',
    'roll',
    'rot90',
    'round',
    'round_',
    'row_stack',
    'rrelu',
    'rrelu_',
    'rsqrt',
    'rsqrt_',
    'rsub',
    'scalar_tensor',
    'scatter',
    'scatter_add',
    'scatter_reduce',
    'searchsorted',
    'segment_reduce',
    'select',
    'select_copy',
    'select_scatter',
    'selu',
    'selu_',
    'sgn',
    'sigmoid',
    'sigmoid_',
    'sign',
    'signbit',
    'sin',
    'sin_',
    'sinc',
    'sinc_',
    'sinh',
    'sinh_',
    'slice_copy',
    'slice_inverse',
    'slice_scatter',
    'slogdet',
    'softmax',
    'sort',
    'split',
    'split_copy',
    'split_with_sizes',
    'split_with_sizes_copy',
    'sqrt',
    'sqrt_',
    'square',
    'square_',
    'squeeze',
    'squeeze_copy',
    'stack',
    'std',
    'std_mean',
    'stft',
    'sub',
    'sum',
    'svd',
    'swapaxes',
    'swapdims',
    't',
    't_copy',
    'take',
    'take_along_dim',
    'tan',
    'tan_',
    'tanh',
    'tanh_',
    'tensor_split',
    'tensordot',
    'threshold',
    'threshold_',
    'tile',
    'topk',
    'trace',
    'transpose',
    'transpose_copy',
    'trapezoid',
    'trapz',
    'triangular_solve',
    'tril',
    'tril_indices',
    'triplet_margin_loss',
    'triu',
    'triu_indices',
    'trunc',
    'trunc_',
    'unbind',
    'unbind_copy',
    'unflatten',
    'unfold_copy',
    'unique_consecutive',
    'unsafe_chunk',
    'unsafe_split',
    'unsafe_split_with_sizes',
    'unsqueeze',
    'unsqueeze_copy',
    'vander',
    'var',
    'var_mean',
    'vdot',
    'view_as_complex',
    'view_as_real',
    'view_copy',
    'vsplit',
    'vstack',
    'where',
    'xlogy',
    'xlogy_',
    'zero_',
    'zeros',
    'zeros_like',
)
METHODS = (
    '_conj',
    '_conj_physical',
    'abs',
    'abs_',
    'acos',
    'acos_',
    'acosh',
    'acosh_',
    'add',
    'add_',
    'addbmm',
    'addbmm_',
    'addcdiv',
    'addcdiv_',
    'addcmul',
    'addcmul_',
    'addmm',
    'addmm_',
    'addmv',
    'addmv_',
    'addr',
    'addr_',
    'adjoint',
    'all',
    'allclose',
    'amax',
    'amin',
    'aminmax',
    'angle',
    'any',
    'arccos',
    'arccos_',
    'arccosh',
    'arccosh_',
    'arcsin',
    'arcsin_',
    'arcsinh',
    'arcsinh_',
    'arctan',
    'arctan2',
    'arctan2_',
    'arctan_',
    'arctanh',
    'arctanh_',
    'argmax',
    'argmin',
    'argsort',
    'argwhere',
    'as_strided',
    'as_strided_scatter',
    'asin',
    'asin_',
    'asinh',
    'asinh_',
    'atan',
    'atan2',
    'atan2_',
    'atan_',
    'atanh',
    'atanh_',
    'baddbmm',
    'baddbmm_',
    'bernoulli',
    'bernoulli_',
    'bincount',
    'bitwise_and',
    'bitwise_and_',
    'bitwise_left_shift',
    'bitwise_left_shift_',
    'bitwise_not',
    'bitwise_not_',
    'bitwise_or',
    'bitwise_or_',
    'bitwise_right_shift',
    'bitwise_right_shift_',
    'bitwise_xor',
    'bitwise_xor_',
    'bmm',
    'broadcast_to',
    'cauchy_',
    'ceil',
    'ceil_',
    'cholesky',
    'cholesky_inverse',
    'cholesky_solve',
    'chunk',
    'clamp',
    'clamp_',
    'clamp_max',
    'clamp_max_',
    'clamp_min',
    'clamp_min_',
    'clip',
    'clip_',
    'clone',
    'conj',
    'conj_physical',
    'conj_physical_',
    'contiguous',
    'copy_',
    'copysign',
    'copysign_',
    'corrcoef',
    'cos',
    'cos_',
    'cosh',
    'cosh_',
    'count_nonzero',
    'cov',
    'cross',
    'cummax',
    'cummin',
    'cumprod',
    'cumprod_',
    'cumsum',
    'cumsum_',
    'deg2rad',
    'deg2rad_',
    'det',
    'detach',
    'detach_',
    'diag',
    'diag_embed',
    'diagflat',
    'diagonal',
    'diagonal_scatter',
    'diff',
    'digamma',
    'digamma_',
    'dist',
    'div',
    'div_',
    'dot',
    'dsplit',
    'eq',
    'eq_',
    'equal',
    'erf',
    'erf_',
    'erfc',
    'erfc_',
    'erfinv',
    'erfinv_',
    'exp',
    'exp2',
    'exp2_',
    'exp_',
    'expand',
    'expand_as',
    'expm1',
    'expm1_',
    'exponential_',
    'fill_',
    'fill_diagonal_',
    'fix',
    'fix_',
    'flatten',
    'flip',
    'fliplr',
    'flipud',
    'float_power',
    'float_power_',
    'floor',
    'floor_',
    'floor_divide',
    'floor_divide_',
    'fmax',
    'fmin',
    'fmod',
    'fmod_',
    'frac',
    'frac_',
    'frexp',
    'gather',
    'gcd',
    'gcd_',
    'ge',
    'ge_',
    'geometric_',
    'geqrf',
    'ger',
    'greater',
    'greater_',
    'greater_equal',
    'greater_equal_',
    'gt',
    'gt_',
    'hardshrink',
    'hash_tensor',
    'heaviside',
    'heaviside_',
    'histc',
    'histogram',
    'hsplit',
    'hypot',
    'hypot_',
    'i0',
    'i0_',
    'igamma',
    'igamma_',
    'igammac',
    'igammac_',
    'index',
    'index_add',
    'index_add_',
    'index_copy',
    'index_copy_',
    'index_fill',
    'index_fill_',
    'index_put',
    'index_put_',
    'index_reduce',
    'index_reduce_',
    'index_select',
    'inner',
    'inverse',
    'is_nonzero',
    'is_pinned',
    'is_same_size',
    'is_signed',
    'isclose',
    'isfinite',
    'isinf',
    'isnan',
    'isneginf',
    'isposinf',
    'isreal',
    'istft',
    'kron',
    'kthvalue',
    'lcm',
    'lcm_',
    'ldexp',
    'ldexp_',
    'le',
    'le_',
    'lerp',
    'lerp_',
    'less',
    'less_',
    'less_equal',
    'less_equal_',
    'lgamma',
    'lgamma_',
    'log',
    'log10',
    'log10_',
    'log1p',
    'log1p_',
    'log2',
    'log2_',
    'log_',
    'log_normal_',
    'log_softmax',
    'logaddexp',
    'logaddexp2',
    'logcumsumexp',
    'logdet',
    'logical_and',
    'logical_and_',
    'logical_not',
    'logical_not_',
    'logical_or',
    'logical_or_',
    'logical_xor',
    'logical_xor_',
    'logit',
    'logit_',
    'logsumexp',
    'lt',
    'lt_',
    'lu_solve',
    'masked_fill',
    'masked_fill_',
    'masked_scatter',
    'masked_scatter_',
    'masked_select',
    'matmul',
    'matrix_exp',
    'matrix_power',
    'max',
    'maximum',
    'mean',
    'median',
    'min',
    'minimum',
    'mm',
    'mode',
    'moveaxis',
    'movedim',
    'msort',
    'mul',
    'mul_',
    'multinomial',
    'mv',
    'mvlgamma',
    'mvlgamma_',
    'nan_to_num',
    'nan_to_num_',
    'nanmean',
    'nanmedian',
    'nanquantile',
    'nansum',
    'narrow',
    'narrow_copy',
    'ne',
    'ne_',
    'neg',
    'neg_',
    'negative_',
    'new_empty',
    'new_empty_strided',
    'new_full',
    'new_ones',
    'new_zeros',
    'nextafter',
    'nextafter_',
    'nonzero',
    'nonzero_static',
    'norm',
    'normal_',
    'not_equal',
    'not_equal_',
    'numel',
    'orgqr',
    'ormqr',
    'outer',
    'permute',
    'pin_memory',
    'pinverse',
    'polygamma',
    'polygamma_',
    'positive',
    'pow',
    'pow_',
    'prelu',
    'prod',
    'put',
    'put_',
    'quantile',
    'rad2deg',
    'rad2deg_',
    'random_',
    'ravel',
    'reciprocal',
    'reciprocal_',
    'relu',
    'relu_',
    'remainder',
    'remainder_',
    'renorm',
    'renorm_',
    'repeat',
    'repeat_interleave',
    'reshape',
    'reshape_as',
    'resize_',
    'resize_as_',
    'resolve_conj',
    'resolve_neg',
    'roll',
    'rot90',
    'round',
    'round_',
    'rsqrt',
    'rsqrt_',
    'scatter',
    'scatter_',
    'scatter_add',
    'scatter_add_',
    'scatter_reduce',
    'scatter_reduce_',
    'select',
    'select_scatter',
    'sgn',
    'sgn_',
    'sigmoid',
    'sigmoid_',
    'sign',
    'sign_',
    'signbit',
    'sin',
    'sin_',
    'sinc',
    'sinc_',
    'sinh',
    'sinh_',
    'slice_inverse',
    'slice_scatter',
    'slogdet',
    'softmax',
    'sort',
    'split',
    'split_with_sizes',
    'sqrt',
    'sqrt_',
    'square',
    'square_',
    'squeeze',
    'std',
    'stft',
    'sub',
    'sub_',
    'sum',
    'sum_to_size',
    'svd',
    'swapaxes',
    'swapaxes_',
    'swapdims',
    'swapdims_',
    't',
    'take',
    'take_along_dim',
    'tan',
    'tan_',
    'tanh',
    'tanh_',
    'tensor_split',
    'tile',
    'topk',
    'trace',
    'transpose',
    'triangular_solve',
    'tril',
    'tril_',
    'triu',
    'triu_',
    'trunc',
    'trunc_',
    'unbind',
    'unflatten',
    'unfold',
    'uniform_',
    'unique_consecutive',
    'unsafe_chunk',
    'unsafe_split',
    'unsafe_split_with_sizes',
    'unsqueeze',
    'var',
    'vdot',
    'view',
    'view_as',
    'vsplit',
    'where',
    'xlogy',
    'xlogy_',
    'zero_',
)

# --- decoding (fixed text written by ``_table.py``, Note [Packed operator index]) ---

PACKET_NAMES = tuple(_PACKET_NAMES.split("\n"))
_cache = {}  # the packets' lines by name, made on first read (a racing thread makes an equal one)


def _lines():
    found = _cache.get("lines")
    if found is None:
        found = _cache["lines"] = dict(zip(PACKET_NAMES, _PACKETS.split("\n")))
    return found


def _rows_of(line):
    """``[(position in ROWS, row), ...]`` of a packet's line."""
    rows = line.partition("|")[2]
    return [(int(fields[0]), tuple(None if f == "-" else f for f in fields[1:]))
            for fields in (row.split(" ") for row in rows.split(";"))] if rows else []


def packet_schemas(packet):
    """The positions of ``packet``'s schemas in ``_aten.SCHEMAS`` (``()`` for an unknown packet)."""
    line = _lines().get(packet)
    return () if line is None else tuple(map(int, line.partition("|")[0].split()))


def packet_rows(packet):
    """The rows of ``packet`` (``ROWS`` entries), in index order (``()`` for an unknown packet)."""
    line = _lines().get(packet)
    return () if line is None else tuple(row for _, row in _rows_of(line))


def __getattr__(name):
    """``QUALIFIED``, ``ROWS``, ``PACKETS`` and ``PACKET_ROWS`` as whole tables, decoded on first read."""
    if name == "QUALIFIED":  # read when a built-in operator's tags are first asked for
        value = globals()[name] = tuple(_QUALIFIED.split("\n"))
        return value
    lines = _lines()
    if name == "ROWS":
        value = tuple(row for _, row in sorted(r for p in PACKET_NAMES for r in _rows_of(lines[p])))
    elif name == "PACKETS":
        value = {p: packet_schemas(p) for p in PACKET_NAMES}
    elif name == "PACKET_ROWS":
        found = [(p, tuple(i for i, _ in _rows_of(lines[p]))) for p in PACKET_NAMES]
        value = dict(sorted(((p, rows) for p, rows in found if rows), key=lambda item: item[1][0]))
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
