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
  True))

# Every operator's qualified name (aten::name[.overload], no .default), in _aten.SCHEMAS order.
QUALIFIED = tuple("""\
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
aten::nanquantile.scalar_out""".split("\n"))

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
0|467 _log_softmax reduction KERNELS reduction -
1|466 _softmax reduction KERNELS reduction -
2|92 _to_copy factory KERNELS meta_aware -
3 1121|693 abs unary KERNELS pointwise -;1121 abs.out out_variants EXPLICIT explicit -
4|721 abs_ unary KERNELS inplace -
6 5 1110|307 add.Tensor pointwise KERNELS pointwise -;308 add.Scalar pointwise KERNELS pointwise -;1110 add.out out_variants EXPLICIT explicit -
8 7|367 add_.Tensor pointwise KERNELS inplace -;368 add_.Scalar pointwise KERNELS inplace -
9|536 alias shape KERNELS view -
10 11 12|474 all reduction KERNELS reduction -;475 all.dim reduction KERNELS reduction -;476 all.dims reduction KERNELS reduction -
13|339 allclose pointwise KERNELS data_dependent -
14 1132|454 amax reduction KERNELS reduction -;1132 amax.out out_variants EXPLICIT explicit -
15 1187|455 amin reduction KERNELS reduction -;1187 amin.out out_variants EXPLICIT explicit -
16 1228|260 aminmax misc_ops KERNELS proxy -;1228 aminmax.out out_variants EXPLICIT explicit -
17 18 19|471 any reduction KERNELS reduction -;472 any.dim reduction KERNELS reduction -;473 any.dims reduction KERNELS reduction -
20 21 22|72 arange factory KERNELS factory factory.META_KERNELS;73 arange.start factory KERNELS factory factory.META_KERNELS;74 arange.start_step factory KERNELS factory factory.META_KERNELS
23 1133|460 argmax reduction KERNELS reduction -;1133 argmax.out out_variants EXPLICIT explicit -
24 1180|461 argmin reduction KERNELS reduction -;1180 argmin.out out_variants EXPLICIT explicit -
25 26 1205|549 argsort sorting KERNELS reduction -;550 argsort.stable sorting KERNELS reduction -;1205 argsort.stable_out out_variants EXPLICIT explicit -
27|556 argwhere sorting KERNELS data_dependent -
28|257 as_strided misc_ops KERNELS own_meta misc_ops.META_KERNELS
30 29|361 bitwise_and.Tensor pointwise KERNELS pointwise -;362 bitwise_and.Scalar pointwise KERNELS pointwise -
31 479|140 bitwise_and_.Scalar inplace_logic OPS.KERNELS inplace -;384 bitwise_and_.Tensor pointwise KERNELS inplace -
32|344 bitwise_not pointwise KERNELS pointwise -
34 33|363 bitwise_or.Tensor pointwise KERNELS pointwise -;364 bitwise_or.Scalar pointwise KERNELS pointwise -
35 480|141 bitwise_or_.Scalar inplace_logic OPS.KERNELS inplace -;385 bitwise_or_.Tensor pointwise KERNELS inplace -
37 36|365 bitwise_xor.Tensor pointwise KERNELS pointwise -;366 bitwise_xor.Scalar pointwise KERNELS pointwise -
38 481|142 bitwise_xor_.Scalar inplace_logic OPS.KERNELS inplace -;386 bitwise_xor_.Tensor pointwise KERNELS inplace -
39 1108|156 bmm linalg KERNELS proxy -;1108 bmm.out out_variants EXPLICIT explicit -
41 40|552 bucketize.Tensor sorting KERNELS proxy -;553 bucketize.Scalar sorting KERNELS proxy -
42 1136|539 cat shape KERNELS proxy -;1136 cat.out out_variants EXPLICIT explicit -
43 1140|702 ceil unary KERNELS pointwise -;1140 ceil.out out_variants EXPLICIT explicit -
44|1020 chunk shape COMPOSITE composite -
45 46 1117|334 clamp pointwise KERNELS pointwise -;335 clamp.Tensor pointwise KERNELS pointwise -;1117 clamp.out out_variants EXPLICIT explicit -
47 757|382 clamp_ pointwise KERNELS inplace -;391 clamp_.Tensor pointwise OPS.KERNELS inplace -
48 755 1141 1263|337 clamp_max pointwise KERNELS pointwise -;389 clamp_max.Tensor pointwise OPS.KERNELS pointwise -;1141 clamp_max.out out_variants EXPLICIT explicit -;1263 clamp_max.Tensor_out out_variants EXPLICIT explicit -
49 753 1142 1262|336 clamp_min pointwise KERNELS pointwise -;387 clamp_min.Tensor pointwise OPS.KERNELS pointwise -;1142 clamp_min.out out_variants EXPLICIT explicit -;1262 clamp_min.Tensor_out out_variants EXPLICIT explicit -
50|538 clone shape KERNELS proxy -
51|276 constant_pad_nd nn_ops KERNELS proxy -
52|1019 contiguous shape COMPOSITE composite -
53|345 copy_ pointwise KERNELS inplace -
54 1143|711 cos unary KERNELS pointwise -;1143 cos.out out_variants EXPLICIT explicit -
55|726 cos_ unary KERNELS inplace -
56 57|264 count_nonzero misc_ops KERNELS reduction -;265 count_nonzero.dim_IntList misc_ops KERNELS reduction -
58 1144|261 cumprod misc_ops KERNELS reduction -;1144 cumprod.out out_variants EXPLICIT explicit -
59 1134|468 cumsum reduction KERNELS reduction -;1134 cumsum.out out_variants EXPLICIT explicit -
60|537 detach shape KERNELS view -
61|524 diagonal shape KERNELS view -
62|971 diff misc_ops COMPOSITE composite -
65 63 66 64 1113|315 div.Tensor pointwise KERNELS pointwise -;316 div.Scalar pointwise KERNELS pointwise -;317 div.Tensor_mode pointwise KERNELS pointwise -;318 div.Scalar_mode pointwise KERNELS pointwise -;1113 div.out out_variants EXPLICIT explicit -
68 69 67 70|373 div_.Tensor pointwise KERNELS inplace -;374 div_.Scalar pointwise KERNELS inplace -;375 div_.Tensor_mode pointwise KERNELS inplace -;376 div_.Scalar_mode pointwise KERNELS inplace -
71|157 dot linalg KERNELS proxy -
72|825 dropout dropout_ops COMPOSITE composite -
73|274 elu nn_ops KERNELS pointwise -
74|802 embedding composite_nn COMPOSITE composite -
75|69 empty.memory_format factory KERNELS factory factory.META_KERNELS
76|82 empty_like factory KERNELS like -
77|70 empty_strided factory KERNELS factory factory.META_KERNELS
79 78 1128|349 eq.Tensor pointwise KERNELS pointwise -;350 eq.Scalar pointwise KERNELS pointwise -;1128 eq.Tensor_out out_variants EXPLICIT explicit -
80 1181|269 erf nn_ops KERNELS pointwise -;1181 erf.out out_variants EXPLICIT explicit -
81 1119|708 exp unary KERNELS pointwise -;1119 exp.out out_variants EXPLICIT explicit -
82 1182|263 exp2 misc_ops KERNELS pointwise -;1182 exp2.out out_variants EXPLICIT explicit -
83|723 exp_ unary KERNELS inplace -
84|530 expand shape KERNELS view -
85|1016 expand_as shape COMPOSITE composite -
86 1183|709 expm1 unary KERNELS pointwise -;1183 expm1.out out_variants EXPLICIT explicit -
87|732 expm1_ unary KERNELS inplace -
88 89|75 eye factory KERNELS factory factory.META_KERNELS;76 eye.m factory KERNELS factory factory.META_KERNELS
90 91|346 fill_.Scalar pointwise KERNELS inplace -;347 fill_.Tensor pointwise KERNELS inplace -
92|1018 flatten.using_ints shape COMPOSITE composite -
93|545 flip shape KERNELS proxy -
94 1126|701 floor unary KERNELS pointwise -;1126 floor.out out_variants EXPLICIT explicit -
95 96|319 floor_divide pointwise KERNELS pointwise -;320 floor_divide.Scalar pointwise KERNELS pointwise -
97 98|378 floor_divide_.Tensor pointwise KERNELS inplace -;379 floor_divide_.Scalar pointwise KERNELS inplace -
100 99 1199 1198|267 fmod.Tensor misc_ops KERNELS pointwise -;268 fmod.Scalar misc_ops KERNELS pointwise -;1198 fmod.Scalar_out out_variants EXPLICIT explicit -;1199 fmod.Tensor_out out_variants EXPLICIT explicit -
101|71 full factory KERNELS factory factory.META_KERNELS
102|85 full_like factory KERNELS like -
103 1168|110 gather indexing KERNELS proxy -;1168 gather.out out_variants EXPLICIT explicit -
105 104|359 ge.Tensor pointwise KERNELS pointwise -;360 ge.Scalar pointwise KERNELS pointwise -
106|270 gelu nn_ops KERNELS pointwise -
108 107|357 gt.Tensor pointwise KERNELS pointwise -;358 gt.Scalar pointwise KERNELS pointwise -
109|273 hardtanh nn_ops KERNELS pointwise -
110|106 index.Tensor indexing KERNELS proxy -
111|108 index_put indexing KERNELS proxy -
112|107 index_put_ indexing KERNELS inplace -
113 1167|109 index_select indexing KERNELS proxy -;1167 index_select.out out_variants EXPLICIT explicit -
114|338 isclose pointwise KERNELS pointwise -
115|707 isfinite unary KERNELS pointwise -
116|706 isinf unary KERNELS pointwise -
117|705 isnan unary KERNELS pointwise -
118 1227|557 kthvalue sorting KERNELS reduction -;1227 kthvalue.values out_variants EXPLICIT explicit -
119|975 layer_norm norm_ops COMPOSITE composite -
121 120|355 le.Tensor pointwise KERNELS pointwise -;356 le.Scalar pointwise KERNELS pointwise -
122|699 leaky_relu unary KERNELS pointwise -
123 684 1171 1172|220 lerp.Tensor math_ops KERNELS pointwise -;340 lerp.Scalar pointwise KERNELS pointwise -;1171 lerp.Scalar_out out_variants EXPLICIT explicit -;1172 lerp.Tensor_out out_variants EXPLICIT explicit -
124|910 linear linalg COMPOSITE composite -
125 1149|714 log unary KERNELS pointwise -;1149 log.out out_variants EXPLICIT explicit -
126 1184|716 log10 unary KERNELS pointwise -;1184 log10.out out_variants EXPLICIT explicit -
127 1185|717 log1p unary KERNELS pointwise -;1185 log1p.out out_variants EXPLICIT explicit -
128 1186|715 log2 unary KERNELS pointwise -;1186 log2.out out_variants EXPLICIT explicit -
129|724 log_ unary KERNELS inplace -
130|465 log_softmax.int reduction KERNELS reduction -
131|341 logical_and pointwise KERNELS pointwise -
132|700 logical_not unary KERNELS pointwise -
133|342 logical_or pointwise KERNELS pointwise -
134|343 logical_xor pointwise KERNELS pointwise -
135 1152|804 logsumexp composite_nn COMPOSITE composite -;1152 logsumexp.out out_variants EXPLICIT explicit -
137 136 1129|353 lt.Tensor pointwise KERNELS pointwise -;354 lt.Scalar pointwise KERNELS pointwise -;1129 lt.Tensor_out out_variants EXPLICIT explicit -
138 139|113 masked_fill.Scalar indexing KERNELS proxy -;114 masked_fill.Tensor indexing KERNELS proxy -
140 141|115 masked_fill_.Scalar indexing KERNELS inplace -;116 masked_fill_.Tensor indexing KERNELS inplace -
142|266 masked_select misc_ops KERNELS data_dependent -
143 1109|909 matmul linalg COMPOSITE composite -;1109 matmul.out out_variants EXPLICIT explicit -
146 144 145 1229 1203 1201|329 max.other pointwise KERNELS pointwise -;456 max reduction KERNELS reduction -;458 max.dim reduction KERNELS reduction -;1201 max.out out_variants EXPLICIT explicit -;1203 max.unary_out out_variants EXPLICIT explicit -;1229 max.dim_max out_variants EXPLICIT explicit -
147 1114|327 maximum pointwise KERNELS pointwise -;1114 maximum.out out_variants EXPLICIT explicit -
148 149 1131|450 mean reduction KERNELS reduction -;451 mean.dim reduction KERNELS reduction -;1131 mean.out out_variants EXPLICIT explicit -
152 150 151 1230 1204 1202|330 min.other pointwise KERNELS pointwise -;457 min reduction KERNELS reduction -;459 min.dim reduction KERNELS reduction -;1202 min.out out_variants EXPLICIT explicit -;1204 min.unary_out out_variants EXPLICIT explicit -;1230 min.dim_min out_variants EXPLICIT explicit -
153 1115|328 minimum pointwise KERNELS pointwise -;1115 minimum.out out_variants EXPLICIT explicit -
154 1107|155 mm linalg KERNELS proxy -;1107 mm.out out_variants EXPLICIT explicit -
155 156|543 movedim.int shape KERNELS view -;544 movedim.intlist shape KERNELS view -
158 157 1112|313 mul.Tensor pointwise KERNELS pointwise -;314 mul.Scalar pointwise KERNELS pointwise -;1112 mul.out out_variants EXPLICIT explicit -
160 159|371 mul_.Tensor pointwise KERNELS inplace -;372 mul_.Scalar pointwise KERNELS inplace -
161|159 mv linalg KERNELS proxy -
162 163|522 narrow shape KERNELS view -;1022 narrow.Tensor shape COMPOSITE composite -
165 164|351 ne.Tensor pointwise KERNELS pointwise -;352 ne.Scalar pointwise KERNELS pointwise -
166 1120|692 neg unary KERNELS pointwise -;1120 neg.out out_variants EXPLICIT explicit -
167|722 neg_ unary KERNELS inplace -
168|86 new_empty factory KERNELS like -
169|255 new_empty_strided misc_ops KERNELS own_meta misc_ops.META_KERNELS
170|89 new_full factory KERNELS like -
171|88 new_ones factory KERNELS like -
172|87 new_zeros factory KERNELS like -
173|117 nonzero indexing KERNELS data_dependent -
174|91 normal_ factory KERNELS inplace -
175|93 numel factory KERNELS meta_aware -
176|277 one_hot nn_ops KERNELS own_meta meta.META_KERNELS
177|68 ones factory KERNELS factory factory.META_KERNELS
178|81 ones_like factory KERNELS like -
179 1178|158 outer linalg KERNELS proxy -;1178 outer.out out_variants EXPLICIT explicit -
180|803 pad composite_nn COMPOSITE composite -
181|529 permute shape KERNELS view -
184 183 182 1116|324 pow.Tensor_Tensor pointwise KERNELS pointwise -;325 pow.Tensor_Scalar pointwise KERNELS pointwise -;326 pow.Scalar pointwise KERNELS pointwise -;1116 pow.Tensor_Scalar_out out_variants EXPLICIT explicit -
185 186|380 pow_.Scalar pointwise KERNELS inplace -;381 pow_.Tensor pointwise KERNELS inplace -
187 188 1158|452 prod reduction KERNELS reduction -;453 prod.dim_int reduction KERNELS reduction -;1158 prod.int_out out_variants EXPLICIT explicit -
189|77 rand factory KERNELS factory factory.META_KERNELS
190|83 rand_like factory KERNELS like -
191|79 randint factory KERNELS factory factory.META_KERNELS
192|78 randn factory KERNELS factory factory.META_KERNELS
193|84 randn_like factory KERNELS like -
194 1188|720 reciprocal unary KERNELS pointwise -;1188 reciprocal.out out_variants EXPLICIT explicit -
195|696 relu unary KERNELS pointwise -
196|730 relu_ unary KERNELS inplace -
198 197 201 1200|321 remainder.Tensor pointwise KERNELS pointwise -;322 remainder.Scalar pointwise KERNELS pointwise -;323 remainder.Scalar_Tensor pointwise KERNELS pointwise -;1200 remainder.Tensor_out out_variants EXPLICIT explicit -
199 200|377 remainder_.Scalar pointwise KERNELS inplace -;383 remainder_.Tensor pointwise KERNELS inplace -
202|546 repeat shape KERNELS proxy -
203 204 205|558 repeat_interleave.self_int sorting KERNELS proxy -;559 repeat_interleave.self_Tensor sorting KERNELS data_dependent -;560 repeat_interleave.Tensor sorting KERNELS data_dependent -
206|526 reshape shape KERNELS view -
207|801 rms_norm composite_nn COMPOSITE composite -
208 209 1127|262 round.decimals misc_ops KERNELS pointwise -;703 round unary KERNELS pointwise -;1127 round.out out_variants EXPLICIT explicit -
210 1123|719 rsqrt unary KERNELS pointwise -;1123 rsqrt.out out_variants EXPLICIT explicit -
212 211|311 rsub.Tensor pointwise KERNELS pointwise -;312 rsub.Scalar pointwise KERNELS pointwise -
213|791 scaled_dot_product_attention attention_ops COMPOSITE composite -
215 214 218 219 1194 1195|111 scatter.src indexing KERNELS proxy -;112 scatter.value indexing KERNELS proxy -;121 scatter.reduce indexing KERNELS proxy -;122 scatter.value_reduce indexing KERNELS proxy -;1194 scatter.src_out out_variants EXPLICIT explicit -;1195 scatter.value_out out_variants EXPLICIT explicit -
216 217 220 221|118 scatter_.src indexing KERNELS inplace -;119 scatter_.value indexing KERNELS inplace -;123 scatter_.reduce indexing KERNELS inplace -;124 scatter_.value_reduce indexing KERNELS inplace -
222 1196|120 scatter_add indexing KERNELS proxy -;1196 scatter_add.out out_variants EXPLICIT explicit -
224 223|554 searchsorted.Tensor sorting KERNELS proxy -;555 searchsorted.Scalar sorting KERNELS proxy -
225|534 select.int shape KERNELS view -
226 1124|698 sigmoid unary KERNELS pointwise -;1124 sigmoid.out out_variants EXPLICIT explicit -
227|729 sigmoid_ unary KERNELS inplace -
228 1169|694 sign unary KERNELS pointwise -;1169 sign.out out_variants EXPLICIT explicit -
229|731 sign_ unary KERNELS inplace -
230|697 silu unary KERNELS pointwise -
231 1155|710 sin unary KERNELS pointwise -;1155 sin.out out_variants EXPLICIT explicit -
232|725 sin_ unary KERNELS inplace -
233|535 slice.Tensor shape KERNELS view -
234 1135|464 softmax.int reduction KERNELS reduction -;1135 softmax.int_out out_variants EXPLICIT explicit -
235|275 softplus nn_ops KERNELS pointwise -
236 237 1236|469 sort reduction KERNELS reduction -;551 sort.stable sorting KERNELS reduction -;1236 sort.values out_variants EXPLICIT explicit -
238 239|259 split.sizes misc_ops KERNELS view -;541 split.Tensor shape KERNELS view -
240|258 split_with_sizes misc_ops KERNELS view -
241 1122|718 sqrt unary KERNELS pointwise -;1122 sqrt.out out_variants EXPLICIT explicit -
242|728 sqrt_ unary KERNELS inplace -
243 1189|695 square unary KERNELS pointwise -;1189 square.out out_variants EXPLICIT explicit -
244 245 246|532 squeeze shape KERNELS view -;533 squeeze.dim shape KERNELS view -;542 squeeze.dims shape KERNELS view -
247 1137|540 stack shape KERNELS proxy -;1137 stack.out out_variants EXPLICIT explicit -
438 248 440 1190|463 std.correction reduction KERNELS reduction -;837 std.dim extra_ops COMPOSITE composite -;839 std extra_ops COMPOSITE composite -;1190 std.correction_out out_variants EXPLICIT explicit -
250 249 1111|309 sub.Tensor pointwise KERNELS pointwise -;310 sub.Scalar pointwise KERNELS pointwise -;1111 sub.out out_variants EXPLICIT explicit -
252 251|369 sub_.Scalar pointwise KERNELS inplace -;370 sub_.Tensor pointwise KERNELS inplace -
254 253 1130|448 sum reduction KERNELS reduction -;449 sum.dim_IntList reduction KERNELS reduction -;1130 sum.IntList_out out_variants EXPLICIT explicit -
255|527 t shape KERNELS view -
256 1191|712 tan unary KERNELS pointwise -;1191 tan.out out_variants EXPLICIT explicit -
257 1125|713 tanh unary KERNELS pointwise -;1125 tanh.out out_variants EXPLICIT explicit -
258|727 tanh_ unary KERNELS inplace -
259 1237|470 topk reduction KERNELS topk -;1237 topk.values out_variants EXPLICIT explicit -
260|528 transpose.int shape KERNELS view -
261 1164|548 tril shape KERNELS proxy -;1164 tril.out out_variants EXPLICIT explicit -
262 1163|547 triu shape KERNELS proxy -;1163 triu.out out_variants EXPLICIT explicit -
263 1159|704 trunc unary KERNELS pointwise -;1159 trunc.out out_variants EXPLICIT explicit -
264|523 unbind.int shape KERNELS view -
265|1021 unflatten.int shape COMPOSITE composite -
266|90 uniform_ factory KERNELS inplace -
267|531 unsqueeze shape KERNELS view -
437 268 439 1192|462 var.correction reduction KERNELS reduction -;836 var.dim extra_ops COMPOSITE composite -;838 var extra_ops COMPOSITE composite -;1192 var.correction_out out_variants EXPLICIT explicit -
269 270|256 view.dtype misc_ops KERNELS own_meta misc_ops.META_KERNELS;525 view shape KERNELS view -
271|1017 view_as shape COMPOSITE composite -
274 272 273 1118|331 where.self pointwise KERNELS pointwise -;332 where.ScalarOther pointwise KERNELS pointwise -;333 where.ScalarSelf pointwise KERNELS pointwise -;1118 where.self_out out_variants EXPLICIT explicit -
275|348 zero_ pointwise KERNELS inplace -
276|67 zeros factory KERNELS factory factory.META_KERNELS
277|80 zeros_like factory KERNELS like -
278|0 celu activation_ops KERNELS pointwise -
279|12 celu_ activation_ops KERNELS inplace -
280|736 selu activation_ops COMPOSITE composite -
281|737 selu_ activation_ops COMPOSITE composite -
282|17 elu_ activation_ops KERNELS inplace -
283|1 glu activation_ops KERNELS proxy -
284|2 hardshrink activation_ops KERNELS pointwise -
285|3 softshrink activation_ops KERNELS pointwise -
286|4 hardsigmoid activation_ops KERNELS pointwise -
287|13 hardsigmoid_ activation_ops KERNELS inplace -
288|5 hardswish activation_ops KERNELS pointwise -
289|14 hardswish_ activation_ops KERNELS inplace -
290|738 log_sigmoid activation_ops COMPOSITE composite -
291|6 log_sigmoid_forward activation_ops KERNELS proxy -
292|7 mish activation_ops KERNELS pointwise -
293|15 mish_ activation_ops KERNELS inplace -
294|739 prelu activation_ops COMPOSITE composite -
295|8 _prelu_kernel activation_ops KERNELS pointwise -
296|740 rrelu activation_ops COMPOSITE composite -
297|741 rrelu_ activation_ops COMPOSITE composite -
298|9 rrelu_with_noise activation_ops KERNELS proxy -
299|10 rrelu_with_noise_ activation_ops KERNELS inplace -
300|11 threshold activation_ops KERNELS pointwise -
301|16 threshold_ activation_ops KERNELS inplace -
302|742 affine_grid_generator affine_grid OPS.COMPOSITE composite -
303|743 arccos aliases OPS.COMPOSITE composite -
304|744 arccos_ aliases OPS.COMPOSITE composite -
305|745 arccosh aliases OPS.COMPOSITE composite -
306|746 arccosh_ aliases OPS.COMPOSITE composite -
307|747 arcsin aliases OPS.COMPOSITE composite -
308|748 arcsin_ aliases OPS.COMPOSITE composite -
309|749 arcsinh aliases OPS.COMPOSITE composite -
310|750 arcsinh_ aliases OPS.COMPOSITE composite -
311|751 arctan aliases OPS.COMPOSITE composite -
312|752 arctan_ aliases OPS.COMPOSITE composite -
313|753 arctanh aliases OPS.COMPOSITE composite -
314|754 arctanh_ aliases OPS.COMPOSITE composite -
315|755 arctan2 aliases OPS.COMPOSITE composite -
316|756 arctan2_ aliases OPS.COMPOSITE composite -
317|757 fix aliases OPS.COMPOSITE composite -
318|758 fix_ aliases OPS.COMPOSITE composite -
319 320|759 greater.Tensor aliases OPS.COMPOSITE composite -;760 greater.Scalar aliases OPS.COMPOSITE composite -
322 321|761 greater_.Tensor aliases OPS.COMPOSITE composite -;762 greater_.Scalar aliases OPS.COMPOSITE composite -
323 324|763 greater_equal.Tensor aliases OPS.COMPOSITE composite -;764 greater_equal.Scalar aliases OPS.COMPOSITE composite -
326 325|765 greater_equal_.Tensor aliases OPS.COMPOSITE composite -;766 greater_equal_.Scalar aliases OPS.COMPOSITE composite -
327 328|767 less.Tensor aliases OPS.COMPOSITE composite -;768 less.Scalar aliases OPS.COMPOSITE composite -
330 329|769 less_.Tensor aliases OPS.COMPOSITE composite -;770 less_.Scalar aliases OPS.COMPOSITE composite -
331 332|771 less_equal.Tensor aliases OPS.COMPOSITE composite -;772 less_equal.Scalar aliases OPS.COMPOSITE composite -
334 333|773 less_equal_.Tensor aliases OPS.COMPOSITE composite -;774 less_equal_.Scalar aliases OPS.COMPOSITE composite -
335 336|775 not_equal.Tensor aliases OPS.COMPOSITE composite -;776 not_equal.Scalar aliases OPS.COMPOSITE composite -
338 337|777 not_equal_.Tensor aliases OPS.COMPOSITE composite -;778 not_equal_.Scalar aliases OPS.COMPOSITE composite -
339 341|779 clip aliases OPS.COMPOSITE composite -;781 clip.Tensor aliases OPS.COMPOSITE composite -
340 342|780 clip_ aliases OPS.COMPOSITE composite -;782 clip_.Tensor aliases OPS.COMPOSITE composite -
344 343|783 moveaxis.int aliases OPS.COMPOSITE composite -;784 moveaxis.intlist aliases OPS.COMPOSITE composite -
345|785 swapaxes aliases OPS.COMPOSITE composite -
346|786 swapaxes_ aliases OPS.COMPOSITE composite -
347|787 swapdims aliases OPS.COMPOSITE composite -
348|788 swapdims_ aliases OPS.COMPOSITE composite -
349|789 row_stack aliases OPS.COMPOSITE composite -
350|790 ger aliases OPS.COMPOSITE composite -
351|18 _safe_softmax attention_ops KERNELS proxy -
352|19 _softmax_backward_data attention_ops KERNELS proxy -
353|20 _log_softmax_backward_data attention_ops KERNELS proxy -
354|21 _scaled_dot_product_flash_attention_for_cpu attention_ops KERNELS proxy -
355|22 _scaled_dot_product_flash_attention_for_cpu_backward attention_ops KERNELS proxy -
356|792 _scaled_dot_product_attention_math attention_ops COMPOSITE composite -
357 1241|23 complex complex_build OPS.KERNELS pointwise -;1241 complex.out out_variants EXPLICIT explicit -
358 1242|24 polar complex_build OPS.KERNELS pointwise -;1242 polar.out out_variants EXPLICIT explicit -
359|793 isreal complex_build OPS.COMPOSITE composite -
360|794 adjoint complex_ops OPS.COMPOSITE composite -
361|25 view_as_real complex_views OPS.KERNELS view -
362|26 view_as_complex complex_views OPS.KERNELS view -
363|795 real complex_views OPS.COMPOSITE composite -
364|796 imag complex_views OPS.COMPOSITE composite -
365|27 _conj complex_views OPS.KERNELS pointwise -
366|797 conj complex_views OPS.COMPOSITE composite -
367|28 _conj_physical complex_views OPS.KERNELS pointwise -
368 1243|798 conj_physical complex_views OPS.COMPOSITE composite -;1243 conj_physical.out out_variants EXPLICIT explicit -
369|29 conj_physical_ complex_views OPS.KERNELS inplace -
370|799 resolve_conj complex_views OPS.COMPOSITE composite -
371|800 resolve_neg complex_views OPS.COMPOSITE composite -
372 1244|30 angle complex_views OPS.KERNELS pointwise -;1244 angle.out out_variants EXPLICIT explicit -
373|31 convolution conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS
374|32 convolution_backward conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS
376 375|33 _convolution conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS;805 _convolution.deprecated conv_ops OPS.COMPOSITE composite -
377|806 _convolution_mode conv_ops OPS.COMPOSITE composite -
378 381|807 conv1d conv_ops OPS.COMPOSITE composite -;810 conv1d.padding conv_ops OPS.COMPOSITE composite -
379 382|808 conv2d conv_ops OPS.COMPOSITE composite -;811 conv2d.padding conv_ops OPS.COMPOSITE composite -
380 383|809 conv3d conv_ops OPS.COMPOSITE composite -;812 conv3d.padding conv_ops OPS.COMPOSITE composite -
384|813 conv_transpose1d conv_ops OPS.COMPOSITE composite -
385|814 conv_transpose2d.input conv_ops OPS.COMPOSITE composite -
386|815 conv_transpose3d.input conv_ops OPS.COMPOSITE composite -
387|34 im2col conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS
388|35 col2im conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS
389|36 pixel_shuffle conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS
390|37 pixel_unshuffle conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS
391|38 channel_shuffle conv_ops OPS.KERNELS own_meta conv_ops.OPS.META_KERNELS
392|816 native_channel_shuffle conv_ops OPS.COMPOSITE composite -
393 394|39 _ctc_loss ctc_ops KERNELS own_meta ctc_ops.META_KERNELS;40 _ctc_loss.Tensor ctc_ops KERNELS data_dependent -
395 396|41 _ctc_loss_backward ctc_ops KERNELS own_meta ctc_ops.META_KERNELS;42 _ctc_loss_backward.Tensor ctc_ops KERNELS own_meta ctc_ops.META_KERNELS
397 398|817 ctc_loss.IntList ctc_ops COMPOSITE composite -;818 ctc_loss.Tensor ctc_ops COMPOSITE composite -
399|819 cdist distance_ops COMPOSITE composite -
400|43 _cdist_forward distance_ops KERNELS proxy -
401|44 _euclidean_dist distance_ops KERNELS proxy -
402|820 pdist distance_ops COMPOSITE composite -
403|45 _pdist_forward distance_ops KERNELS proxy -
404|821 cosine_similarity distance_ops COMPOSITE composite -
405|822 bilinear distance_ops COMPOSITE composite -
406|46 _trilinear distance_ops KERNELS proxy -
407 408|823 embedding_bag distance_ops COMPOSITE composite -;824 embedding_bag.padding_idx distance_ops COMPOSITE composite -
409|47 _embedding_bag distance_ops KERNELS proxy -
410|48 _embedding_bag_forward_only distance_ops KERNELS proxy -
411|50 _embedding_bag_backward distance_ops KERNELS proxy -
412|51 _embedding_bag_dense_backward distance_ops KERNELS proxy -
413|52 _embedding_bag_per_sample_weights_backward distance_ops KERNELS proxy -
414|49 embedding_renorm_ distance_ops KERNELS inplace -
415|826 dropout_ dropout_ops COMPOSITE composite -
416|827 feature_dropout dropout_ops COMPOSITE composite -
417|828 feature_dropout_ dropout_ops COMPOSITE composite -
418|829 alpha_dropout dropout_ops COMPOSITE composite -
419|830 alpha_dropout_ dropout_ops COMPOSITE composite -
420|831 feature_alpha_dropout dropout_ops COMPOSITE composite -
421|832 feature_alpha_dropout_ dropout_ops COMPOSITE composite -
422|53 native_dropout dropout_ops KERNELS proxy -
423|54 native_dropout_backward dropout_ops KERNELS proxy -
424|833 einsum einsum OPS.COMPOSITE composite -
425 426|55 bitwise_left_shift.Tensor extra_ops KERNELS pointwise -;56 bitwise_left_shift.Tensor_Scalar extra_ops KERNELS pointwise -
427 428|57 bitwise_right_shift.Tensor extra_ops KERNELS pointwise -;58 bitwise_right_shift.Tensor_Scalar extra_ops KERNELS pointwise -
429|59 index_add extra_ops KERNELS proxy -
430|60 index_add_ extra_ops KERNELS inplace -
431|61 scatter_add_ extra_ops KERNELS inplace -
432|62 roll extra_ops KERNELS proxy -
433 1148|63 nan_to_num extra_ops KERNELS pointwise -;1148 nan_to_num.out out_variants EXPLICIT explicit -
434|64 isin.Tensor_Tensor extra_ops KERNELS proxy -
435 436 1193|834 norm.Scalar extra_ops COMPOSITE composite -;835 norm.ScalarOpt_dim extra_ops COMPOSITE composite -;1193 norm.out out_variants EXPLICIT explicit -
441|840 tile extra_ops COMPOSITE composite -
442|65 equal extra_ops KERNELS own_meta extra_ops.META_KERNELS
443|66 _local_scalar_dense extra_ops KERNELS own_meta extra_ops.META_KERNELS
444|841 copy functional_forms OPS.COMPOSITE composite -
445 446|842 fill.Scalar functional_forms OPS.COMPOSITE composite -;843 fill.Tensor functional_forms OPS.COMPOSITE composite -
447 1146|94 index_copy index_ops KERNELS proxy -;1146 index_copy.out out_variants EXPLICIT explicit -
448|95 index_copy_ index_ops KERNELS inplace -
450 449|96 index_fill.int_Scalar index_ops KERNELS proxy -;97 index_fill.int_Tensor index_ops KERNELS proxy -
452 451|98 index_fill_.int_Scalar index_ops KERNELS inplace -;99 index_fill_.int_Tensor index_ops KERNELS inplace -
453 1161|100 scatter_reduce.two index_ops KERNELS proxy -;1161 scatter_reduce.two_out out_variants EXPLICIT explicit -
454|101 scatter_reduce_.two index_ops KERNELS inplace -
455 1165|844 take index_ops COMPOSITE composite -;1165 take.out out_variants EXPLICIT explicit -
456 1166|845 take_along_dim index_ops COMPOSITE composite -;1166 take_along_dim.out out_variants EXPLICIT explicit -
457|102 unfold index_ops KERNELS view -
458 459 460|846 tensor_split.sections index_ops COMPOSITE composite -;847 tensor_split.indices index_ops COMPOSITE composite -;848 tensor_split.tensor_indices_or_sections index_ops COMPOSITE composite -
461|103 detach_ index_ops KERNELS own_meta index_ops.META_KERNELS
462 1245|104 index_reduce index_reduce_ops OPS.KERNELS proxy -;1245 index_reduce.out out_variants EXPLICIT explicit -
463|105 index_reduce_ index_reduce_ops OPS.KERNELS inplace -
464|125 leaky_relu_ inplace_activations OPS.KERNELS inplace -
465|126 hardtanh_ inplace_activations OPS.KERNELS inplace -
466|127 silu_ inplace_activations OPS.KERNELS inplace -
468 467|128 eq_.Tensor inplace_logic OPS.KERNELS inplace -;129 eq_.Scalar inplace_logic OPS.KERNELS inplace -
470 469|130 ne_.Tensor inplace_logic OPS.KERNELS inplace -;131 ne_.Scalar inplace_logic OPS.KERNELS inplace -
472 471|132 lt_.Tensor inplace_logic OPS.KERNELS inplace -;133 lt_.Scalar inplace_logic OPS.KERNELS inplace -
474 473|134 le_.Tensor inplace_logic OPS.KERNELS inplace -;135 le_.Scalar inplace_logic OPS.KERNELS inplace -
476 475|136 gt_.Tensor inplace_logic OPS.KERNELS inplace -;137 gt_.Scalar inplace_logic OPS.KERNELS inplace -
478 477|138 ge_.Tensor inplace_logic OPS.KERNELS inplace -;139 ge_.Scalar inplace_logic OPS.KERNELS inplace -
482|143 logical_and_ inplace_logic OPS.KERNELS inplace -
483|144 logical_or_ inplace_logic OPS.KERNELS inplace -
484|145 logical_xor_ inplace_logic OPS.KERNELS inplace -
485|146 logical_not_ inplace_logic OPS.KERNELS inplace -
486|147 bitwise_not_ inplace_logic OPS.KERNELS inplace -
488 487|148 bitwise_left_shift_.Tensor inplace_logic OPS.KERNELS inplace -;149 bitwise_left_shift_.Tensor_Scalar inplace_logic OPS.KERNELS inplace -
490 489|150 bitwise_right_shift_.Tensor inplace_logic OPS.KERNELS inplace -;151 bitwise_right_shift_.Tensor_Scalar inplace_logic OPS.KERNELS inplace -
491 492|849 atleast_1d joining_ops OPS.COMPOSITE composite -;850 atleast_1d.Sequence joining_ops OPS.COMPOSITE composite -
493 494|851 atleast_2d joining_ops OPS.COMPOSITE composite -;852 atleast_2d.Sequence joining_ops OPS.COMPOSITE composite -
495 496|853 atleast_3d joining_ops OPS.COMPOSITE composite -;854 atleast_3d.Sequence joining_ops OPS.COMPOSITE composite -
497 1246|855 hstack joining_ops OPS.COMPOSITE composite -;1246 hstack.out out_variants EXPLICIT explicit -
498 1247|856 vstack joining_ops OPS.COMPOSITE composite -;1247 vstack.out out_variants EXPLICIT explicit -
499 1248|857 dstack joining_ops OPS.COMPOSITE composite -;1248 dstack.out out_variants EXPLICIT explicit -
500 1249|858 column_stack joining_ops OPS.COMPOSITE composite -;1249 column_stack.out out_variants EXPLICIT explicit -
501 502|859 hsplit.int joining_ops OPS.COMPOSITE composite -;860 hsplit.array joining_ops OPS.COMPOSITE composite -
503 504|861 vsplit.int joining_ops OPS.COMPOSITE composite -;862 vsplit.array joining_ops OPS.COMPOSITE composite -
505 506|863 dsplit.int joining_ops OPS.COMPOSITE composite -;864 dsplit.array joining_ops OPS.COMPOSITE composite -
507|865 unsafe_split.Tensor joining_ops OPS.COMPOSITE composite -
508|866 unsafe_split_with_sizes joining_ops OPS.COMPOSITE composite -
509|867 unsafe_chunk joining_ops OPS.COMPOSITE composite -
510|868 broadcast_to joining_ops OPS.COMPOSITE composite -
511|869 broadcast_tensors joining_ops OPS.COMPOSITE composite -
512 513|870 meshgrid joining_ops OPS.COMPOSITE composite -;871 meshgrid.indexing joining_ops OPS.COMPOSITE composite -
514|872 cartesian_prod joining_ops OPS.COMPOSITE composite -
515|873 combinations joining_ops OPS.COMPOSITE composite -
516|874 block_diag joining_ops OPS.COMPOSITE composite -
517|875 diag_embed joining_ops OPS.COMPOSITE composite -
518 1250|876 diag joining_ops OPS.COMPOSITE composite -;1250 diag.out out_variants EXPLICIT explicit -
519|877 diagflat joining_ops OPS.COMPOSITE composite -
520|878 fliplr joining_ops OPS.COMPOSITE composite -
521|879 flipud joining_ops OPS.COMPOSITE composite -
522|880 rot90 joining_ops OPS.COMPOSITE composite -
523|881 ravel joining_ops OPS.COMPOSITE composite -
524|882 reshape_as joining_ops OPS.COMPOSITE composite -
525|883 sum_to_size joining_ops OPS.COMPOSITE composite -
526|884 alias_copy joining_ops OPS.COMPOSITE composite -
527|885 as_strided_copy joining_ops OPS.COMPOSITE composite -
528|886 diagonal_copy joining_ops OPS.COMPOSITE composite -
529|887 expand_copy joining_ops OPS.COMPOSITE composite -
530|888 narrow_copy joining_ops OPS.COMPOSITE composite -
531|889 permute_copy joining_ops OPS.COMPOSITE composite -
532|890 select_copy.int joining_ops OPS.COMPOSITE composite -
533|891 slice_copy.Tensor joining_ops OPS.COMPOSITE composite -
534 535 536|892 squeeze_copy joining_ops OPS.COMPOSITE composite -;893 squeeze_copy.dim joining_ops OPS.COMPOSITE composite -;894 squeeze_copy.dims joining_ops OPS.COMPOSITE composite -
537|895 t_copy joining_ops OPS.COMPOSITE composite -
538|896 transpose_copy.int joining_ops OPS.COMPOSITE composite -
539|897 unsqueeze_copy joining_ops OPS.COMPOSITE composite -
540|898 unfold_copy joining_ops OPS.COMPOSITE composite -
541 542|899 view_copy joining_ops OPS.COMPOSITE composite -;900 view_copy.dtype joining_ops OPS.COMPOSITE composite -
543|901 detach_copy joining_ops OPS.COMPOSITE composite -
544|902 split_copy.Tensor joining_ops OPS.COMPOSITE composite -
545|903 split_with_sizes_copy joining_ops OPS.COMPOSITE composite -
546|904 unbind_copy.int joining_ops OPS.COMPOSITE composite -
547|905 slice_scatter joining_ops OPS.COMPOSITE composite -
548|906 select_scatter joining_ops OPS.COMPOSITE composite -
549|907 diagonal_scatter joining_ops OPS.COMPOSITE composite -
550|908 as_strided_scatter joining_ops OPS.COMPOSITE composite -
551|152 tril_indices layout_factories OPS.KERNELS own_meta layout_factories.OPS.META_KERNELS
552|153 triu_indices layout_factories OPS.KERNELS own_meta layout_factories.OPS.META_KERNELS
553|154 empty_permuted layout_factories OPS.KERNELS own_meta layout_factories.OPS.META_KERNELS
554 1174|911 linalg_cholesky linalg_composite OPS.COMPOSITE composite -;1174 linalg_cholesky.out out_variants EXPLICIT explicit -
555 1177|912 linalg_inv linalg_composite OPS.COMPOSITE composite -;1177 linalg_inv.out out_variants EXPLICIT explicit -
556|913 linalg_solve_ex linalg_composite OPS.COMPOSITE composite -
557 1179|914 linalg_solve linalg_composite OPS.COMPOSITE composite -;1179 linalg_solve.out out_variants EXPLICIT explicit -
558 1176|915 linalg_det linalg_composite OPS.COMPOSITE composite -;1176 linalg_det.out out_variants EXPLICIT explicit -
559|916 linalg_slogdet linalg_composite OPS.COMPOSITE composite -
560|917 slogdet linalg_composite OPS.COMPOSITE composite -
561|918 logdet linalg_composite OPS.COMPOSITE composite -
562 1240|919 linalg_eigh linalg_composite OPS.COMPOSITE composite -;1240 linalg_eigh.eigvals out_variants EXPLICIT explicit -
563|920 linalg_eigvalsh linalg_composite OPS.COMPOSITE composite -
564|921 linalg_eigvals linalg_composite OPS.COMPOSITE composite -
565 1239|922 linalg_svd linalg_composite OPS.COMPOSITE composite -;1239 linalg_svd.U out_variants EXPLICIT explicit -
566|923 linalg_svdvals linalg_composite OPS.COMPOSITE composite -
567|924 svd linalg_composite OPS.COMPOSITE composite -
568|925 linalg_lu_factor linalg_composite OPS.COMPOSITE composite -
569|926 _lu_with_info linalg_composite OPS.COMPOSITE composite -
570|927 lu_solve linalg_composite OPS.COMPOSITE composite -
571|928 linalg_ldl_factor linalg_composite OPS.COMPOSITE composite -
572|929 matrix_exp linalg_composite OPS.COMPOSITE composite -
573|930 orgqr linalg_composite OPS.COMPOSITE composite -
575 574 622 576|185 linalg_pinv.atol_rtol_tensor linalg_spectral OPS.KERNELS meta_aware -;931 linalg_pinv.atol_rtol_float linalg_composite OPS.COMPOSITE composite -;932 linalg_pinv linalg_composite OPS.COMPOSITE composite -;933 linalg_pinv.rcond_tensor linalg_composite OPS.COMPOSITE composite -
577|934 pinverse linalg_composite OPS.COMPOSITE composite -
580 581 578 579|935 linalg_matrix_rank.atol_rtol_tensor linalg_composite OPS.COMPOSITE composite -;936 linalg_matrix_rank.atol_rtol_float linalg_composite OPS.COMPOSITE composite -;937 linalg_matrix_rank linalg_composite OPS.COMPOSITE composite -;938 linalg_matrix_rank.tol_tensor linalg_composite OPS.COMPOSITE composite -
582 583|939 linalg_cond linalg_composite OPS.COMPOSITE composite -;940 linalg_cond.p_str linalg_composite OPS.COMPOSITE composite -
584|941 linalg_diagonal linalg_composite OPS.COMPOSITE composite -
585|942 linalg_multi_dot linalg_composite OPS.COMPOSITE composite -
586|943 linalg_tensorinv linalg_composite OPS.COMPOSITE composite -
587|944 linalg_tensorsolve linalg_composite OPS.COMPOSITE composite -
588|945 linalg_vander linalg_composite OPS.COMPOSITE composite -
589|946 linalg_vecdot linalg_composite OPS.COMPOSITE composite -
590|160 linalg_cholesky_ex linalg_factor OPS.KERNELS meta_aware -
591|161 linalg_lu_factor_ex linalg_factor OPS.KERNELS meta_aware -
592|162 linalg_lu linalg_factor OPS.KERNELS meta_aware -
593|163 lu_unpack linalg_factor OPS.KERNELS meta_aware -
594|164 linalg_lu_solve linalg_factor OPS.KERNELS meta_aware -
595|165 linalg_inv_ex linalg_factor OPS.KERNELS meta_aware -
596|166 _linalg_solve_ex linalg_factor OPS.KERNELS meta_aware -
597|167 _linalg_det linalg_factor OPS.KERNELS meta_aware -
598|168 _linalg_slogdet linalg_factor OPS.KERNELS meta_aware -
599|169 linalg_solve_triangular linalg_factor OPS.KERNELS meta_aware -
600|170 triangular_solve linalg_factor OPS.KERNELS meta_aware -
601|171 cholesky_solve linalg_factor OPS.KERNELS meta_aware -
602|172 cholesky_inverse linalg_factor OPS.KERNELS meta_aware -
603|173 linalg_ldl_factor_ex linalg_factor OPS.KERNELS meta_aware -
604|174 linalg_ldl_solve linalg_factor OPS.KERNELS meta_aware -
605|175 trace linalg_ops KERNELS own_meta linalg_ops.META_KERNELS
606|947 det linalg_ops COMPOSITE composite -
607 1206|948 inverse linalg_ops COMPOSITE composite -;1206 inverse.out out_variants EXPLICIT explicit -
608 1197|949 cholesky linalg_ops COMPOSITE composite -;1197 cholesky.out out_variants EXPLICIT explicit -
609 1238|176 linalg_qr linalg_ops KERNELS own_meta linalg_ops.META_KERNELS;1238 linalg_qr.out out_variants EXPLICIT explicit -
610 1175|177 linalg_cross linalg_ops KERNELS own_meta linalg_ops.META_KERNELS;1175 linalg_cross.out out_variants EXPLICIT explicit -
611 1162|950 cross linalg_ops COMPOSITE composite -;1162 cross.out out_variants EXPLICIT explicit -
612 1147|951 kron linalg_ops COMPOSITE composite -;1147 kron.out out_variants EXPLICIT explicit -
613 1153|952 matrix_power linalg_ops COMPOSITE composite -;1153 matrix_power.out out_variants EXPLICIT explicit -
614 1208|953 linalg_matrix_power linalg_ops COMPOSITE composite -;1208 linalg_matrix_power.out out_variants EXPLICIT explicit -
615|178 _linalg_eigh linalg_spectral OPS.KERNELS meta_aware -
616|179 linalg_eig linalg_spectral OPS.KERNELS meta_aware -
617|180 _linalg_eigvals linalg_spectral OPS.KERNELS meta_aware -
618|181 _linalg_svd linalg_spectral OPS.KERNELS meta_aware -
619|182 linalg_polar linalg_spectral OPS.KERNELS meta_aware -
620|183 linalg_matrix_sqrth linalg_spectral OPS.KERNELS meta_aware -
621|184 linalg_matrix_exp linalg_spectral OPS.KERNELS meta_aware -
623|186 linalg_lstsq linalg_spectral OPS.KERNELS meta_aware -
624|187 geqrf linalg_spectral OPS.KERNELS meta_aware -
625|188 linalg_householder_product linalg_spectral OPS.KERNELS meta_aware -
626|189 ormqr linalg_spectral OPS.KERNELS meta_aware -
629 631 633 627 628 630 632 634|190 logspace logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS;191 logspace.Tensor_Tensor logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS;192 logspace.Tensor_Scalar logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS;193 logspace.Scalar_Tensor logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS;954 logspace.out logspace_ops OPS.COMPOSITE composite -;955 logspace.Tensor_Tensor_out logspace_ops OPS.COMPOSITE composite -;956 logspace.Tensor_Scalar_out logspace_ops OPS.COMPOSITE composite -;957 logspace.Scalar_Tensor_out logspace_ops OPS.COMPOSITE composite -
636 637 638 635|194 linspace logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS;195 linspace.Tensor_Tensor logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS;196 linspace.Tensor_Scalar logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS;197 linspace.Scalar_Tensor logspace_ops OPS.KERNELS own_meta logspace_ops.OPS.META_KERNELS
639|198 binary_cross_entropy loss_ops KERNELS proxy -
640|199 binary_cross_entropy_with_logits loss_ops KERNELS proxy -
641|200 nll_loss_forward loss_ops KERNELS proxy -
642|201 nll_loss2d_forward loss_ops KERNELS proxy -
643|958 nll_loss loss_ops COMPOSITE composite -
644|959 nll_loss2d loss_ops COMPOSITE composite -
645|960 nll_loss_nd loss_ops COMPOSITE composite -
646|961 cross_entropy_loss loss_ops COMPOSITE composite -
647|962 kl_div loss_ops COMPOSITE composite -
648|963 l1_loss loss_ops COMPOSITE composite -
649|202 smooth_l1_loss loss_ops KERNELS proxy -
650|203 mse_loss loss_ops KERNELS proxy -
651|204 huber_loss loss_ops KERNELS proxy -
652|205 soft_margin_loss loss_ops KERNELS proxy -
653|964 poisson_nll_loss loss_ops COMPOSITE composite -
654|965 hinge_embedding_loss loss_ops COMPOSITE composite -
655|966 margin_ranking_loss loss_ops COMPOSITE composite -
656|967 cosine_embedding_loss loss_ops COMPOSITE composite -
657|206 multi_margin_loss loss_ops KERNELS proxy -
658|968 multilabel_margin_loss loss_ops COMPOSITE composite -
659|207 multilabel_margin_loss_forward loss_ops KERNELS proxy -
660|970 triplet_margin_loss loss_ops COMPOSITE composite -
661|969 pairwise_distance loss_ops COMPOSITE composite -
662 1170|208 atan2 math_ops KERNELS pointwise -;1170 atan2.out out_variants EXPLICIT explicit -
663|221 atan2_ math_ops KERNELS inplace -
664 1173|209 hypot math_ops KERNELS pointwise -;1173 hypot.out out_variants EXPLICIT explicit -
665|222 hypot_ math_ops KERNELS inplace -
666 1150|210 logaddexp math_ops KERNELS pointwise -;1150 logaddexp.out out_variants EXPLICIT explicit -
667 668 1139|211 copysign.Tensor math_ops KERNELS pointwise -;212 copysign.Scalar math_ops KERNELS pointwise -;1139 copysign.out out_variants EXPLICIT explicit -
669 670|223 copysign_.Tensor math_ops KERNELS inplace -;224 copysign_.Scalar math_ops KERNELS inplace -
671 1160|213 heaviside math_ops KERNELS pointwise -;1160 heaviside.out out_variants EXPLICIT explicit -
672|225 heaviside_ math_ops KERNELS inplace -
673 1156|214 sinc math_ops KERNELS pointwise -;1156 sinc.out out_variants EXPLICIT explicit -
674|226 sinc_ math_ops KERNELS inplace -
675 677 676 1151|215 xlogy.Tensor math_ops KERNELS pointwise -;216 xlogy.Scalar_Other math_ops KERNELS pointwise -;217 xlogy.Scalar_Self math_ops KERNELS pointwise -;1151 xlogy.OutTensor out_variants EXPLICIT explicit -
678 679|227 xlogy_.Tensor math_ops KERNELS inplace -;228 xlogy_.Scalar_Other math_ops KERNELS inplace -
680 1145|218 frac math_ops KERNELS pointwise -;1145 frac.out out_variants EXPLICIT explicit -
681|229 frac_ math_ops KERNELS inplace -
682 1138|219 sgn math_ops KERNELS pointwise -;1138 sgn.out out_variants EXPLICIT explicit -
683|230 sgn_ math_ops KERNELS inplace -
685 686|231 lerp_.Tensor math_ops KERNELS inplace -;244 lerp_.Scalar math_ops KERNELS inplace -
687|232 trunc_ math_ops KERNELS inplace -
688|233 floor_ math_ops KERNELS inplace -
689|234 ceil_ math_ops KERNELS inplace -
690 691|235 round_ math_ops KERNELS inplace -;253 round_.decimals math_ops KERNELS inplace -
692|236 reciprocal_ math_ops KERNELS inplace -
693|237 rsqrt_ math_ops KERNELS inplace -
694|238 square_ math_ops KERNELS inplace -
695|239 log2_ math_ops KERNELS inplace -
696|240 log10_ math_ops KERNELS inplace -
697|241 log1p_ math_ops KERNELS inplace -
698|242 tan_ math_ops KERNELS inplace -
699|243 erf_ math_ops KERNELS inplace -
700 754|245 clamp_min_ math_ops KERNELS inplace -;388 clamp_min_.Tensor pointwise OPS.KERNELS inplace -
701|248 exp2_ math_ops KERNELS inplace -
703 702|249 fmod_.Scalar math_ops KERNELS inplace -;250 fmod_.Tensor math_ops KERNELS inplace -
704|251 tril_ math_ops KERNELS inplace -
705|252 triu_ math_ops KERNELS inplace -
706 756|246 clamp_max_ math_ops KERNELS inplace -;390 clamp_max_.Tensor pointwise OPS.KERNELS inplace -
707|247 nan_to_num_ math_ops KERNELS inplace -
708 1251|254 logaddexp2 math_ops OPS.KERNELS pointwise -;1251 logaddexp2.out out_variants EXPLICIT explicit -
709|271 gelu_backward nn_ops KERNELS pointwise -
710|272 silu_backward nn_ops KERNELS pointwise -
711|278 native_batch_norm norm_ops KERNELS proxy -
712 713|279 _native_batch_norm_legit norm_ops KERNELS proxy -;280 _native_batch_norm_legit.no_stats norm_ops KERNELS proxy -
714|281 _native_batch_norm_legit_no_training norm_ops KERNELS proxy -
715|282 _batch_norm_with_update norm_ops KERNELS proxy -
716|283 _batch_norm_no_update norm_ops KERNELS proxy -
717|972 batch_norm norm_ops COMPOSITE composite -
718|973 instance_norm norm_ops COMPOSITE composite -
719|284 native_group_norm norm_ops KERNELS proxy -
720|974 group_norm norm_ops COMPOSITE composite -
721|285 native_layer_norm norm_ops KERNELS proxy -
722|286 native_layer_norm_backward norm_ops KERNELS proxy -
723 1207|287 linalg_vector_norm norms OPS.KERNELS own_meta norms.OPS.META_KERNELS;1207 linalg_vector_norm.out out_variants EXPLICIT explicit -
724 725|976 linalg_matrix_norm norms OPS.COMPOSITE composite -;977 linalg_matrix_norm.str_ord norms OPS.COMPOSITE composite -
726 727|978 linalg_norm norms OPS.COMPOSITE composite -;979 linalg_norm.ord_str norms OPS.COMPOSITE composite -
728 1252|288 gcd numeric_ops OPS.KERNELS pointwise -;1252 gcd.out out_variants EXPLICIT explicit -
729|289 gcd_ numeric_ops OPS.KERNELS inplace -
730 1253|290 lcm numeric_ops OPS.KERNELS pointwise -;1253 lcm.out out_variants EXPLICIT explicit -
731|291 lcm_ numeric_ops OPS.KERNELS inplace -
732 1254|292 ldexp.Tensor numeric_ops OPS.KERNELS pointwise -;1254 ldexp.out out_variants EXPLICIT explicit -
733|293 ldexp_ numeric_ops OPS.KERNELS inplace -
734|294 frexp.Tensor numeric_ops OPS.KERNELS own_meta numeric_ops.OPS.META_KERNELS
735 1255|295 nextafter numeric_ops OPS.KERNELS pointwise -;1255 nextafter.out out_variants EXPLICIT explicit -
736|296 nextafter_ numeric_ops OPS.KERNELS inplace -
737 738 739 1256 1258 1257|980 float_power.Tensor_Tensor numeric_ops OPS.COMPOSITE composite -;981 float_power.Tensor_Scalar numeric_ops OPS.COMPOSITE composite -;982 float_power.Scalar numeric_ops OPS.COMPOSITE composite -;1256 float_power.Tensor_Tensor_out out_variants EXPLICIT explicit -;1257 float_power.Tensor_Scalar_out out_variants EXPLICIT explicit -;1258 float_power.Scalar_out out_variants EXPLICIT explicit -
741 740|983 float_power_.Scalar numeric_ops OPS.COMPOSITE composite -;984 float_power_.Tensor numeric_ops OPS.COMPOSITE composite -
742|985 positive numeric_ops OPS.COMPOSITE composite -
743|297 put placement_ops OPS.KERNELS own_meta placement_ops.OPS.META_KERNELS
744|298 put_ placement_ops OPS.KERNELS inplace -
745|299 masked_scatter placement_ops OPS.KERNELS own_meta placement_ops.OPS.META_KERNELS
746|300 masked_scatter_ placement_ops OPS.KERNELS inplace -
747|301 masked_scatter_backward placement_ops OPS.KERNELS own_meta placement_ops.OPS.META_KERNELS
748|302 _unsafe_masked_index placement_ops OPS.KERNELS meta_aware -
749|303 _unsafe_masked_index_put_accumulate placement_ops OPS.KERNELS meta_aware -
750 1259|304 nonzero_static placement_ops OPS.KERNELS own_meta placement_ops.OPS.META_KERNELS;1259 nonzero_static.out out_variants EXPLICIT explicit -
751 1260|305 _chunk_cat placement_ops OPS.KERNELS meta_aware -;1260 _chunk_cat.out out_variants EXPLICIT explicit -
752 1261|306 hash_tensor placement_ops OPS.KERNELS own_meta placement_ops.OPS.META_KERNELS;1261 hash_tensor.out out_variants EXPLICIT explicit -
758|986 max_pool1d_with_indices pool_ops OPS.COMPOSITE composite -
759|987 max_pool1d pool_ops OPS.COMPOSITE composite -
760|988 max_pool2d pool_ops OPS.COMPOSITE composite -
761|989 max_pool3d pool_ops OPS.COMPOSITE composite -
762|392 max_pool2d_with_indices pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
763|393 max_pool3d_with_indices pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
764|394 max_pool2d_with_indices_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
765|395 max_pool3d_with_indices_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
766|990 avg_pool1d pool_ops OPS.COMPOSITE composite -
767|396 avg_pool2d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
768|397 avg_pool3d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
769|398 avg_pool2d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
770|399 avg_pool3d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
771|991 adaptive_avg_pool1d pool_ops OPS.COMPOSITE composite -
772|992 adaptive_avg_pool2d pool_ops OPS.COMPOSITE composite -
773|993 adaptive_avg_pool3d pool_ops OPS.COMPOSITE composite -
774|400 _adaptive_avg_pool2d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
775|401 _adaptive_avg_pool3d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
776|402 _adaptive_avg_pool2d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
777|403 _adaptive_avg_pool3d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
778|994 adaptive_max_pool1d pool_ops OPS.COMPOSITE composite -
779|404 adaptive_max_pool2d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
780|405 adaptive_max_pool3d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
781|406 adaptive_max_pool2d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
782|407 adaptive_max_pool3d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
783|408 fractional_max_pool2d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
784|409 fractional_max_pool3d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
785|410 fractional_max_pool2d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
786|411 fractional_max_pool3d_backward pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
787|412 max_unpool2d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
788|413 max_unpool3d pool_ops OPS.KERNELS own_meta pool_ops.OPS.META_KERNELS
789 1264|414 vdot products OPS.KERNELS proxy -;1264 vdot.out out_variants EXPLICIT explicit -
790|995 tensordot products OPS.COMPOSITE composite -
791 1265|996 inner products OPS.COMPOSITE composite -;1265 inner.out out_variants EXPLICIT explicit -
792|415 cauchy_ random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS
793|416 exponential_ random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS
794|417 log_normal_ random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS
795|418 geometric_ random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS
796 1266 797|419 bernoulli random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;420 bernoulli.p random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;1266 bernoulli.out out_variants EXPLICIT explicit -
798 799|421 bernoulli_.Tensor random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;422 bernoulli_.float random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS
800 801 802|423 random_.from random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;424 random_.to random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;425 random_ random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS
803 805 807 804 806 808|426 randint_like random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;427 randint_like.generator random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;428 randint_like.Tensor random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;429 randint_like.Tensor_generator random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;430 randint_like.low_dtype random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;431 randint_like.low_generator_dtype random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS
809 810|432 multinomial random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;433 multinomial.out random_ops OPS.KERNELS meta_aware -
811 1267 1268 812 813 1269 814 815|434 normal.Tensor_float random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;435 normal.float_Tensor random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;436 normal.Tensor_Tensor random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;437 normal.float_float random_ops OPS.KERNELS own_meta random_ops.OPS.META_KERNELS;438 normal.float_float_out random_ops OPS.KERNELS meta_aware -;1267 normal.Tensor_float_out out_variants EXPLICIT explicit -;1268 normal.float_Tensor_out out_variants EXPLICIT explicit -;1269 normal.Tensor_Tensor_out out_variants EXPLICIT explicit -
816 1157|439 nansum reduce_ops KERNELS reduction -;1157 nansum.out out_variants EXPLICIT explicit -
817 1154|440 nanmean reduce_ops KERNELS reduction -;1154 nanmean.out out_variants EXPLICIT explicit -
818 1225|441 cummax reduce_ops KERNELS reduction -;1225 cummax.out out_variants EXPLICIT explicit -
819 1226|442 cummin reduce_ops KERNELS reduction -;1226 cummin.out out_variants EXPLICIT explicit -
820 821 1231|443 median reduce_ops KERNELS reduction -;444 median.dim reduce_ops KERNELS reduction -;1231 median.dim_values out_variants EXPLICIT explicit -
822 1235|445 mode reduce_ops KERNELS reduction -;1235 mode.values out_variants EXPLICIT explicit -
824 823 825|997 var_mean.correction reduce_ops COMPOSITE composite -;998 var_mean.dim reduce_ops COMPOSITE composite -;999 var_mean reduce_ops COMPOSITE composite -
827 826 828|1000 std_mean.correction reduce_ops COMPOSITE composite -;1001 std_mean.dim reduce_ops COMPOSITE composite -;1002 std_mean reduce_ops COMPOSITE composite -
829|446 cumprod_ reduce_ops KERNELS inplace -
830|447 cumsum_ reduce_ops KERNELS inplace -
831|477 resize_ resize_ops OPS.KERNELS meta_aware -
832|478 resize_as_ resize_ops OPS.KERNELS meta_aware -
833 834|479 upsample_nearest1d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1003 upsample_nearest1d.vec sample_ops OPS.COMPOSITE composite -
835 836|480 upsample_nearest2d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1004 upsample_nearest2d.vec sample_ops OPS.COMPOSITE composite -
837 838|481 upsample_nearest3d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1005 upsample_nearest3d.vec sample_ops OPS.COMPOSITE composite -
839 840|482 _upsample_nearest_exact1d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1006 _upsample_nearest_exact1d.vec sample_ops OPS.COMPOSITE composite -
841 842|483 _upsample_nearest_exact2d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1007 _upsample_nearest_exact2d.vec sample_ops OPS.COMPOSITE composite -
843 844|484 _upsample_nearest_exact3d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1008 _upsample_nearest_exact3d.vec sample_ops OPS.COMPOSITE composite -
845 846|485 upsample_linear1d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1009 upsample_linear1d.vec sample_ops OPS.COMPOSITE composite -
847 848|486 upsample_bilinear2d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1010 upsample_bilinear2d.vec sample_ops OPS.COMPOSITE composite -
849 850|487 upsample_trilinear3d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1011 upsample_trilinear3d.vec sample_ops OPS.COMPOSITE composite -
851 852|488 upsample_bicubic2d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1012 upsample_bicubic2d.vec sample_ops OPS.COMPOSITE composite -
853 854|489 _upsample_bilinear2d_aa sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1013 _upsample_bilinear2d_aa.vec sample_ops OPS.COMPOSITE composite -
855 856|490 _upsample_bicubic2d_aa sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS;1014 _upsample_bicubic2d_aa.vec sample_ops OPS.COMPOSITE composite -
857|491 upsample_nearest1d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
858|492 upsample_nearest2d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
859|493 upsample_nearest3d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
860|494 _upsample_nearest_exact1d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
861|495 _upsample_nearest_exact2d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
862|496 _upsample_nearest_exact3d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
863|497 upsample_linear1d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
864|498 upsample_bilinear2d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
865|499 upsample_trilinear3d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
866|500 upsample_bicubic2d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
867|501 _upsample_bilinear2d_aa_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
868|502 _upsample_bicubic2d_aa_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
869|1015 grid_sampler sample_ops OPS.COMPOSITE composite -
870|503 grid_sampler_2d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
871|504 grid_sampler_3d sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
872|505 grid_sampler_2d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
873|506 grid_sampler_3d_backward sample_ops OPS.KERNELS own_meta sample_ops.OPS.META_KERNELS
874|507 scalar_tensor scalar_tensor_op OPS.KERNELS own_meta scalar_tensor_op.OPS.META_KERNELS
875 1270|508 addmm scaled_ops OPS.KERNELS proxy -;1270 addmm.out out_variants EXPLICIT explicit -
876 1271|509 addmv scaled_ops OPS.KERNELS proxy -;1271 addmv.out out_variants EXPLICIT explicit -
877 1272|510 addr scaled_ops OPS.KERNELS proxy -;1272 addr.out out_variants EXPLICIT explicit -
878|511 addr_ scaled_ops OPS.KERNELS inplace -
879 1273|512 addbmm scaled_ops OPS.KERNELS proxy -;1273 addbmm.out out_variants EXPLICIT explicit -
880 1274|513 baddbmm scaled_ops OPS.KERNELS proxy -;1274 baddbmm.out out_variants EXPLICIT explicit -
881 1275|514 addcmul scaled_ops OPS.KERNELS pointwise -;1275 addcmul.out out_variants EXPLICIT explicit -
882|515 addcmul_ scaled_ops OPS.KERNELS inplace -
883 1276|516 addcdiv scaled_ops OPS.KERNELS pointwise -;1276 addcdiv.out out_variants EXPLICIT explicit -
884|517 addcdiv_ scaled_ops OPS.KERNELS inplace -
885|518 addmm_ scaled_ops OPS.KERNELS inplace -
886|519 addmv_ scaled_ops OPS.KERNELS inplace -
887|520 addbmm_ scaled_ops OPS.KERNELS inplace -
888|521 baddbmm_ scaled_ops OPS.KERNELS inplace -
889 1277|561 digamma special_ops OPS.KERNELS pointwise -;1277 digamma.out out_variants EXPLICIT explicit -
890|562 digamma_ special_ops OPS.KERNELS inplace -
891 1278|563 lgamma special_ops OPS.KERNELS pointwise -;1278 lgamma.out out_variants EXPLICIT explicit -
892|564 lgamma_ special_ops OPS.KERNELS inplace -
893 1279|565 erfc special_ops OPS.KERNELS pointwise -;1279 erfc.out out_variants EXPLICIT explicit -
894|566 erfc_ special_ops OPS.KERNELS inplace -
895 1280|567 erfinv special_ops OPS.KERNELS pointwise -;1280 erfinv.out out_variants EXPLICIT explicit -
896|568 erfinv_ special_ops OPS.KERNELS inplace -
897 1281|569 i0 special_ops OPS.KERNELS pointwise -;1281 i0.out out_variants EXPLICIT explicit -
898|570 i0_ special_ops OPS.KERNELS inplace -
899 1282|571 special_i0e special_ops OPS.KERNELS pointwise -;1282 special_i0e.out out_variants EXPLICIT explicit -
900 1283|572 special_i1 special_ops OPS.KERNELS pointwise -;1283 special_i1.out out_variants EXPLICIT explicit -
901 1284|573 special_i1e special_ops OPS.KERNELS pointwise -;1284 special_i1e.out out_variants EXPLICIT explicit -
902 1285|574 special_entr special_ops OPS.KERNELS pointwise -;1285 special_entr.out out_variants EXPLICIT explicit -
903 1286|575 special_erfcx special_ops OPS.KERNELS pointwise -;1286 special_erfcx.out out_variants EXPLICIT explicit -
904 1287|576 special_ndtri special_ops OPS.KERNELS pointwise -;1287 special_ndtri.out out_variants EXPLICIT explicit -
905 1288|577 special_log_ndtr special_ops OPS.KERNELS pointwise -;1288 special_log_ndtr.out out_variants EXPLICIT explicit -
906 1289|578 special_airy_ai special_ops OPS.KERNELS pointwise -;1289 special_airy_ai.out out_variants EXPLICIT explicit -
907 1290|579 special_bessel_j0 special_ops OPS.KERNELS pointwise -;1290 special_bessel_j0.out out_variants EXPLICIT explicit -
908 1291|580 special_bessel_j1 special_ops OPS.KERNELS pointwise -;1291 special_bessel_j1.out out_variants EXPLICIT explicit -
909 1292|581 special_bessel_y0 special_ops OPS.KERNELS pointwise -;1292 special_bessel_y0.out out_variants EXPLICIT explicit -
910 1293|582 special_bessel_y1 special_ops OPS.KERNELS pointwise -;1293 special_bessel_y1.out out_variants EXPLICIT explicit -
911 1294|583 special_modified_bessel_i0 special_ops OPS.KERNELS pointwise -;1294 special_modified_bessel_i0.out out_variants EXPLICIT explicit -
912 1295|584 special_modified_bessel_i1 special_ops OPS.KERNELS pointwise -;1295 special_modified_bessel_i1.out out_variants EXPLICIT explicit -
913 1296|585 special_modified_bessel_k0 special_ops OPS.KERNELS pointwise -;1296 special_modified_bessel_k0.out out_variants EXPLICIT explicit -
914 1297|586 special_modified_bessel_k1 special_ops OPS.KERNELS pointwise -;1297 special_modified_bessel_k1.out out_variants EXPLICIT explicit -
915 1298|587 special_scaled_modified_bessel_k0 special_ops OPS.KERNELS pointwise -;1298 special_scaled_modified_bessel_k0.out out_variants EXPLICIT explicit -
916 1299|588 special_scaled_modified_bessel_k1 special_ops OPS.KERNELS pointwise -;1299 special_scaled_modified_bessel_k1.out out_variants EXPLICIT explicit -
917 1300|589 special_spherical_bessel_j0 special_ops OPS.KERNELS pointwise -;1300 special_spherical_bessel_j0.out out_variants EXPLICIT explicit -
918 1301|590 polygamma special_ops OPS.KERNELS pointwise -;1301 polygamma.out out_variants EXPLICIT explicit -
919|591 polygamma_ special_ops OPS.KERNELS inplace -
920 1302|592 mvlgamma special_ops OPS.KERNELS pointwise -;1302 mvlgamma.out out_variants EXPLICIT explicit -
921|593 mvlgamma_ special_ops OPS.KERNELS inplace -
922 1303|594 igamma special_ops OPS.KERNELS pointwise -;1303 igamma.out out_variants EXPLICIT explicit -
923|595 igamma_ special_ops OPS.KERNELS inplace -
924 1304|596 igammac special_ops OPS.KERNELS pointwise -;1304 igammac.out out_variants EXPLICIT explicit -
925|597 igammac_ special_ops OPS.KERNELS inplace -
926 928 927 1305 1306 1307|598 special_xlog1py special_ops OPS.KERNELS pointwise -;599 special_xlog1py.self_scalar special_ops OPS.KERNELS pointwise -;600 special_xlog1py.other_scalar special_ops OPS.KERNELS pointwise -;1305 special_xlog1py.out out_variants EXPLICIT explicit -;1306 special_xlog1py.self_scalar_out out_variants EXPLICIT explicit -;1307 special_xlog1py.other_scalar_out out_variants EXPLICIT explicit -
929 931 930 1308 1309 1310|601 special_zeta special_ops OPS.KERNELS pointwise -;602 special_zeta.self_scalar special_ops OPS.KERNELS pointwise -;603 special_zeta.other_scalar special_ops OPS.KERNELS pointwise -;1308 special_zeta.out out_variants EXPLICIT explicit -;1309 special_zeta.self_scalar_out out_variants EXPLICIT explicit -;1310 special_zeta.other_scalar_out out_variants EXPLICIT explicit -
932 1311 933 1312 934 1313|604 special_chebyshev_polynomial_t special_ops OPS.KERNELS pointwise -;605 special_chebyshev_polynomial_t.x_scalar special_ops OPS.KERNELS pointwise -;606 special_chebyshev_polynomial_t.n_scalar special_ops OPS.KERNELS pointwise -;1311 special_chebyshev_polynomial_t.out out_variants EXPLICIT explicit -;1312 special_chebyshev_polynomial_t.x_scalar_out out_variants EXPLICIT explicit -;1313 special_chebyshev_polynomial_t.n_scalar_out out_variants EXPLICIT explicit -
935 1314 936 1315 937 1316|607 special_chebyshev_polynomial_u special_ops OPS.KERNELS pointwise -;608 special_chebyshev_polynomial_u.x_scalar special_ops OPS.KERNELS pointwise -;609 special_chebyshev_polynomial_u.n_scalar special_ops OPS.KERNELS pointwise -;1314 special_chebyshev_polynomial_u.out out_variants EXPLICIT explicit -;1315 special_chebyshev_polynomial_u.x_scalar_out out_variants EXPLICIT explicit -;1316 special_chebyshev_polynomial_u.n_scalar_out out_variants EXPLICIT explicit -
938 1317 939 1318 940 1319|610 special_chebyshev_polynomial_v special_ops OPS.KERNELS pointwise -;611 special_chebyshev_polynomial_v.x_scalar special_ops OPS.KERNELS pointwise -;612 special_chebyshev_polynomial_v.n_scalar special_ops OPS.KERNELS pointwise -;1317 special_chebyshev_polynomial_v.out out_variants EXPLICIT explicit -;1318 special_chebyshev_polynomial_v.x_scalar_out out_variants EXPLICIT explicit -;1319 special_chebyshev_polynomial_v.n_scalar_out out_variants EXPLICIT explicit -
941 1320 942 1321 943 1322|613 special_chebyshev_polynomial_w special_ops OPS.KERNELS pointwise -;614 special_chebyshev_polynomial_w.x_scalar special_ops OPS.KERNELS pointwise -;615 special_chebyshev_polynomial_w.n_scalar special_ops OPS.KERNELS pointwise -;1320 special_chebyshev_polynomial_w.out out_variants EXPLICIT explicit -;1321 special_chebyshev_polynomial_w.x_scalar_out out_variants EXPLICIT explicit -;1322 special_chebyshev_polynomial_w.n_scalar_out out_variants EXPLICIT explicit -
944 1323 945 1324 946 1325|616 special_shifted_chebyshev_polynomial_t special_ops OPS.KERNELS pointwise -;617 special_shifted_chebyshev_polynomial_t.x_scalar special_ops OPS.KERNELS pointwise -;618 special_shifted_chebyshev_polynomial_t.n_scalar special_ops OPS.KERNELS pointwise -;1323 special_shifted_chebyshev_polynomial_t.out out_variants EXPLICIT explicit -;1324 special_shifted_chebyshev_polynomial_t.x_scalar_out out_variants EXPLICIT explicit -;1325 special_shifted_chebyshev_polynomial_t.n_scalar_out out_variants EXPLICIT explicit -
947 1326 948 1327 949 1328|619 special_shifted_chebyshev_polynomial_u special_ops OPS.KERNELS pointwise -;620 special_shifted_chebyshev_polynomial_u.x_scalar special_ops OPS.KERNELS pointwise -;621 special_shifted_chebyshev_polynomial_u.n_scalar special_ops OPS.KERNELS pointwise -;1326 special_shifted_chebyshev_polynomial_u.out out_variants EXPLICIT explicit -;1327 special_shifted_chebyshev_polynomial_u.x_scalar_out out_variants EXPLICIT explicit -;1328 special_shifted_chebyshev_polynomial_u.n_scalar_out out_variants EXPLICIT explicit -
950 1329 951 1330 952 1331|622 special_shifted_chebyshev_polynomial_v special_ops OPS.KERNELS pointwise -;623 special_shifted_chebyshev_polynomial_v.x_scalar special_ops OPS.KERNELS pointwise -;624 special_shifted_chebyshev_polynomial_v.n_scalar special_ops OPS.KERNELS pointwise -;1329 special_shifted_chebyshev_polynomial_v.out out_variants EXPLICIT explicit -;1330 special_shifted_chebyshev_polynomial_v.x_scalar_out out_variants EXPLICIT explicit -;1331 special_shifted_chebyshev_polynomial_v.n_scalar_out out_variants EXPLICIT explicit -
953 1332 954 1333 955 1334|625 special_shifted_chebyshev_polynomial_w special_ops OPS.KERNELS pointwise -;626 special_shifted_chebyshev_polynomial_w.x_scalar special_ops OPS.KERNELS pointwise -;627 special_shifted_chebyshev_polynomial_w.n_scalar special_ops OPS.KERNELS pointwise -;1332 special_shifted_chebyshev_polynomial_w.out out_variants EXPLICIT explicit -;1333 special_shifted_chebyshev_polynomial_w.x_scalar_out out_variants EXPLICIT explicit -;1334 special_shifted_chebyshev_polynomial_w.n_scalar_out out_variants EXPLICIT explicit -
956 1335 957 1336 958 1337|628 special_hermite_polynomial_h special_ops OPS.KERNELS pointwise -;629 special_hermite_polynomial_h.x_scalar special_ops OPS.KERNELS pointwise -;630 special_hermite_polynomial_h.n_scalar special_ops OPS.KERNELS pointwise -;1335 special_hermite_polynomial_h.out out_variants EXPLICIT explicit -;1336 special_hermite_polynomial_h.x_scalar_out out_variants EXPLICIT explicit -;1337 special_hermite_polynomial_h.n_scalar_out out_variants EXPLICIT explicit -
959 1338 960 1339 961 1340|631 special_hermite_polynomial_he special_ops OPS.KERNELS pointwise -;632 special_hermite_polynomial_he.x_scalar special_ops OPS.KERNELS pointwise -;633 special_hermite_polynomial_he.n_scalar special_ops OPS.KERNELS pointwise -;1338 special_hermite_polynomial_he.out out_variants EXPLICIT explicit -;1339 special_hermite_polynomial_he.x_scalar_out out_variants EXPLICIT explicit -;1340 special_hermite_polynomial_he.n_scalar_out out_variants EXPLICIT explicit -
962 1341 963 1342 964 1343|634 special_laguerre_polynomial_l special_ops OPS.KERNELS pointwise -;635 special_laguerre_polynomial_l.x_scalar special_ops OPS.KERNELS pointwise -;636 special_laguerre_polynomial_l.n_scalar special_ops OPS.KERNELS pointwise -;1341 special_laguerre_polynomial_l.out out_variants EXPLICIT explicit -;1342 special_laguerre_polynomial_l.x_scalar_out out_variants EXPLICIT explicit -;1343 special_laguerre_polynomial_l.n_scalar_out out_variants EXPLICIT explicit -
965 1344 966 1345 967 1346|637 special_legendre_polynomial_p special_ops OPS.KERNELS pointwise -;638 special_legendre_polynomial_p.x_scalar special_ops OPS.KERNELS pointwise -;639 special_legendre_polynomial_p.n_scalar special_ops OPS.KERNELS pointwise -;1344 special_legendre_polynomial_p.out out_variants EXPLICIT explicit -;1345 special_legendre_polynomial_p.x_scalar_out out_variants EXPLICIT explicit -;1346 special_legendre_polynomial_p.n_scalar_out out_variants EXPLICIT explicit -
968 1347|1023 special_psi special_ops OPS.COMPOSITE composite -;1347 special_psi.out out_variants EXPLICIT explicit -
969 1348|1024 special_digamma special_ops OPS.COMPOSITE composite -;1348 special_digamma.out out_variants EXPLICIT explicit -
970 1349|1025 special_gammaln special_ops OPS.COMPOSITE composite -;1349 special_gammaln.out out_variants EXPLICIT explicit -
971 1350|1026 special_erf special_ops OPS.COMPOSITE composite -;1350 special_erf.out out_variants EXPLICIT explicit -
972 1351|1027 special_erfc special_ops OPS.COMPOSITE composite -;1351 special_erfc.out out_variants EXPLICIT explicit -
973 1352|1028 special_erfinv special_ops OPS.COMPOSITE composite -;1352 special_erfinv.out out_variants EXPLICIT explicit -
974 1353|1029 special_i0 special_ops OPS.COMPOSITE composite -;1353 special_i0.out out_variants EXPLICIT explicit -
975 1354|1030 special_expit special_ops OPS.COMPOSITE composite -;1354 special_expit.out out_variants EXPLICIT explicit -
976 1355|1031 special_exp2 special_ops OPS.COMPOSITE composite -;1355 special_exp2.out out_variants EXPLICIT explicit -
977 1356|1032 special_expm1 special_ops OPS.COMPOSITE composite -;1356 special_expm1.out out_variants EXPLICIT explicit -
978 1357|1033 special_log1p special_ops OPS.COMPOSITE composite -;1357 special_log1p.out out_variants EXPLICIT explicit -
979 1358|1034 special_sinc special_ops OPS.COMPOSITE composite -;1358 special_sinc.out out_variants EXPLICIT explicit -
980 1359|1035 special_logit special_ops OPS.COMPOSITE composite -;1359 special_logit.out out_variants EXPLICIT explicit -
981 1360|1036 special_round special_ops OPS.COMPOSITE composite -;1360 special_round.out out_variants EXPLICIT explicit -
982 984 983 1361 1362 1363|1037 special_xlogy special_ops OPS.COMPOSITE composite -;1038 special_xlogy.self_scalar special_ops OPS.COMPOSITE composite -;1039 special_xlogy.other_scalar special_ops OPS.COMPOSITE composite -;1361 special_xlogy.out out_variants EXPLICIT explicit -;1362 special_xlogy.self_scalar_out out_variants EXPLICIT explicit -;1363 special_xlogy.other_scalar_out out_variants EXPLICIT explicit -
985|1040 special_log_softmax special_ops OPS.COMPOSITE composite -
986|1041 special_softmax special_ops OPS.COMPOSITE composite -
987 1364|1042 special_logsumexp special_ops OPS.COMPOSITE composite -;1364 special_logsumexp.out out_variants EXPLICIT explicit -
988 1365|1043 special_gammainc special_ops OPS.COMPOSITE composite -;1365 special_gammainc.out out_variants EXPLICIT explicit -
989 1366|1044 special_gammaincc special_ops OPS.COMPOSITE composite -;1366 special_gammaincc.out out_variants EXPLICIT explicit -
990 1367|1045 special_polygamma special_ops OPS.COMPOSITE composite -;1367 special_polygamma.out out_variants EXPLICIT explicit -
991 1368|1046 special_multigammaln special_ops OPS.COMPOSITE composite -;1368 special_multigammaln.out out_variants EXPLICIT explicit -
992 1369|1047 special_ndtr special_ops OPS.COMPOSITE composite -;1369 special_ndtr.out out_variants EXPLICIT explicit -
993 1370|640 _fft_c2c spectral OPS.KERNELS own_meta spectral.OPS.META_KERNELS;1370 _fft_c2c.out out_variants EXPLICIT explicit -
994 1371|641 _fft_r2c spectral OPS.KERNELS own_meta spectral.OPS.META_KERNELS;1371 _fft_r2c.out out_variants EXPLICIT explicit -
995 1372|642 _fft_c2r spectral OPS.KERNELS own_meta spectral.OPS.META_KERNELS;1372 _fft_c2r.out out_variants EXPLICIT explicit -
996|1048 fft_fft spectral OPS.COMPOSITE composite -
997|1049 fft_ifft spectral OPS.COMPOSITE composite -
998|1050 fft_rfft spectral OPS.COMPOSITE composite -
999|1051 fft_irfft spectral OPS.COMPOSITE composite -
1000|1052 fft_hfft spectral OPS.COMPOSITE composite -
1001|1053 fft_ihfft spectral OPS.COMPOSITE composite -
1002|1054 fft_fft2 spectral OPS.COMPOSITE composite -
1003|1055 fft_ifft2 spectral OPS.COMPOSITE composite -
1004|1056 fft_rfft2 spectral OPS.COMPOSITE composite -
1005|1057 fft_irfft2 spectral OPS.COMPOSITE composite -
1006|1058 fft_hfft2 spectral OPS.COMPOSITE composite -
1007|1059 fft_ihfft2 spectral OPS.COMPOSITE composite -
1008|1060 fft_fftn spectral OPS.COMPOSITE composite -
1009|1061 fft_ifftn spectral OPS.COMPOSITE composite -
1010|1062 fft_rfftn spectral OPS.COMPOSITE composite -
1011|1063 fft_irfftn spectral OPS.COMPOSITE composite -
1012|1064 fft_hfftn spectral OPS.COMPOSITE composite -
1013|1065 fft_ihfftn spectral OPS.COMPOSITE composite -
1014|1066 fft_fftshift spectral OPS.COMPOSITE composite -
1015|1067 fft_ifftshift spectral OPS.COMPOSITE composite -
1016|643 unfold_backward spectral OPS.KERNELS proxy -
1017 1018|1068 stft spectral OPS.COMPOSITE composite -;1069 stft.center spectral OPS.COMPOSITE composite -
1019|1070 istft spectral OPS.COMPOSITE composite -
1020|644 _unique2 statistics OPS.KERNELS data_dependent -
1021|645 _unique statistics OPS.KERNELS data_dependent -
1022|646 unique_dim statistics OPS.KERNELS data_dependent -
1023|647 unique_dim_consecutive statistics OPS.KERNELS data_dependent -
1024|648 unique_consecutive statistics OPS.KERNELS data_dependent -
1025|649 bincount statistics OPS.KERNELS data_dependent -
1026|650 _histogramdd_bin_edges statistics OPS.KERNELS proxy -
1027|651 _histogramdd_from_bin_cts statistics OPS.KERNELS proxy -
1028|652 _histogramdd_from_bin_tensors statistics OPS.KERNELS proxy -
1029 1030 1031|1071 histogramdd statistics OPS.COMPOSITE composite -;1072 histogramdd.int_bins statistics OPS.COMPOSITE composite -;1073 histogramdd.TensorList_bins statistics OPS.COMPOSITE composite -
1032 1233 1033 1234|653 histogram.bins_tensor statistics OPS.KERNELS proxy -;654 histogram.bin_ct statistics OPS.KERNELS proxy -;1233 histogram.bins_tensor_out out_variants EXPLICIT explicit -;1234 histogram.bin_ct_out out_variants EXPLICIT explicit -
1034 1373|655 histc statistics OPS.KERNELS proxy -;1373 histc.out out_variants EXPLICIT explicit -
1035 1036 1232|656 nanmedian statistics OPS.KERNELS proxy -;657 nanmedian.dim statistics OPS.KERNELS proxy -;1232 nanmedian.dim_values out_variants EXPLICIT explicit -
1037|658 _logcumsumexp statistics OPS.KERNELS proxy -
1038 1374|659 logcumsumexp statistics OPS.KERNELS proxy -;1374 logcumsumexp.out out_variants EXPLICIT explicit -
1039 1375|660 renorm statistics OPS.KERNELS proxy -;1375 renorm.out out_variants EXPLICIT explicit -
1040|661 renorm_ statistics OPS.KERNELS inplace -
1041|662 dist statistics OPS.KERNELS proxy -
1042|663 segment_reduce statistics OPS.KERNELS own_meta statistics.OPS.META_KERNELS
1043|664 _segment_reduce_backward statistics OPS.KERNELS own_meta statistics.OPS.META_KERNELS
1044 1376|1074 msort statistics OPS.COMPOSITE composite -;1376 msort.out out_variants EXPLICIT explicit -
1045 1046|1075 trapezoid.x statistics OPS.COMPOSITE composite -;1076 trapezoid.dx statistics OPS.COMPOSITE composite -
1047 1048|1077 trapz.x statistics OPS.COMPOSITE composite -;1078 trapz.dx statistics OPS.COMPOSITE composite -
1049 1050|1079 cumulative_trapezoid.x statistics OPS.COMPOSITE composite -;1080 cumulative_trapezoid.dx statistics OPS.COMPOSITE composite -
1051|1081 cov statistics OPS.COMPOSITE composite -
1052|1082 corrcoef statistics OPS.COMPOSITE composite -
1053 1054 1377 1378|1083 quantile statistics OPS.COMPOSITE composite -;1084 quantile.scalar statistics OPS.COMPOSITE composite -;1377 quantile.out out_variants EXPLICIT explicit -;1378 quantile.scalar_out out_variants EXPLICIT explicit -
1055 1056 1379 1380|1085 nanquantile statistics OPS.COMPOSITE composite -;1086 nanquantile.scalar statistics OPS.COMPOSITE composite -;1379 nanquantile.out out_variants EXPLICIT explicit -;1380 nanquantile.scalar_out out_variants EXPLICIT explicit -
1059 1060 1061 1062 1063 1057 1058|1087 gradient.tensorarrayint statistics OPS.COMPOSITE composite -;1088 gradient.tensorarray statistics OPS.COMPOSITE composite -;1089 gradient.scalarint statistics OPS.COMPOSITE composite -;1090 gradient.scalararray statistics OPS.COMPOSITE composite -;1091 gradient.array statistics OPS.COMPOSITE composite -;1092 gradient.scalarrayint statistics OPS.COMPOSITE composite -;1093 gradient.scalarrayarray statistics OPS.COMPOSITE composite -
1064 1209|665 asin trig_ops KERNELS pointwise -;1209 asin.out out_variants EXPLICIT explicit -
1065 1210|666 acos trig_ops KERNELS pointwise -;1210 acos.out out_variants EXPLICIT explicit -
1066 1211|667 atan trig_ops KERNELS pointwise -;1211 atan.out out_variants EXPLICIT explicit -
1067 1212|668 sinh trig_ops KERNELS pointwise -;1212 sinh.out out_variants EXPLICIT explicit -
1068 1213|669 cosh trig_ops KERNELS pointwise -;1213 cosh.out out_variants EXPLICIT explicit -
1069 1214|670 asinh trig_ops KERNELS pointwise -;1214 asinh.out out_variants EXPLICIT explicit -
1070 1215|671 acosh trig_ops KERNELS pointwise -;1215 acosh.out out_variants EXPLICIT explicit -
1071 1216|672 atanh trig_ops KERNELS pointwise -;1216 atanh.out out_variants EXPLICIT explicit -
1072 1217|673 deg2rad trig_ops KERNELS pointwise -;1217 deg2rad.out out_variants EXPLICIT explicit -
1073 1218|674 rad2deg trig_ops KERNELS pointwise -;1218 rad2deg.out out_variants EXPLICIT explicit -
1074|681 asin_ trig_ops KERNELS inplace -
1075|682 acos_ trig_ops KERNELS inplace -
1076|683 atan_ trig_ops KERNELS inplace -
1077|684 sinh_ trig_ops KERNELS inplace -
1078|685 cosh_ trig_ops KERNELS inplace -
1079|686 asinh_ trig_ops KERNELS inplace -
1080|687 acosh_ trig_ops KERNELS inplace -
1081|688 atanh_ trig_ops KERNELS inplace -
1082|689 deg2rad_ trig_ops KERNELS inplace -
1083|690 rad2deg_ trig_ops KERNELS inplace -
1084 1219|675 logit trig_ops KERNELS pointwise -;1219 logit.out out_variants EXPLICIT explicit -
1085|691 logit_ trig_ops KERNELS inplace -
1086 1220|676 signbit trig_ops KERNELS pointwise -;1220 signbit.out out_variants EXPLICIT explicit -
1087 1221|677 fmax trig_ops KERNELS pointwise -;1221 fmax.out out_variants EXPLICIT explicit -
1088 1222|678 fmin trig_ops KERNELS pointwise -;1222 fmin.out out_variants EXPLICIT explicit -
1089 1223|679 isposinf trig_ops KERNELS pointwise -;1223 isposinf.out out_variants EXPLICIT explicit -
1090 1224|680 isneginf trig_ops KERNELS pointwise -;1224 isneginf.out out_variants EXPLICIT explicit -
1091|733 _unsafe_view unsafe_view OPS.KERNELS proxy -
1092 1093|1094 hann_window window_functions OPS.COMPOSITE composite -;1095 hann_window.periodic window_functions OPS.COMPOSITE composite -
1094 1095 1102 1103|1096 hamming_window window_functions OPS.COMPOSITE composite -;1097 hamming_window.periodic window_functions OPS.COMPOSITE composite -;1104 hamming_window.periodic_alpha window_functions OPS.COMPOSITE composite -;1105 hamming_window.periodic_alpha_beta window_functions OPS.COMPOSITE composite -
1096 1097|1098 blackman_window window_functions OPS.COMPOSITE composite -;1099 blackman_window.periodic window_functions OPS.COMPOSITE composite -
1098 1099|1100 bartlett_window window_functions OPS.COMPOSITE composite -;1101 bartlett_window.periodic window_functions OPS.COMPOSITE composite -
1100 1101 1104|1102 kaiser_window window_functions OPS.COMPOSITE composite -;1103 kaiser_window.periodic window_functions OPS.COMPOSITE composite -;1106 kaiser_window.beta window_functions OPS.COMPOSITE composite -
1105 1106|734 randperm window_functions OPS.KERNELS own_meta window_functions.OPS.META_KERNELS;735 randperm.generator window_functions OPS.KERNELS own_meta window_functions.OPS.META_KERNELS"""

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
    'nextafter',
    'nonzero',
    'nonzero_static',
    'norm',
    'normal',
    'not_equal',
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
    """``ROWS``, ``PACKETS`` and ``PACKET_ROWS`` as whole tables, decoded on first read."""
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
