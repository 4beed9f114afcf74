// Hardware presets for the analyze view's roofs: vendor specifications, not measurements.
// Data only (pure). Copied from shared/reference/hardware-specs.md ("Accelerator specifications
// (dense peaks unless marked), with sources"), which lists each vendor document; every number
// here names its document and that file's section. No URLs: the page makes no request.
//
// Units: peaks in TFLOP/s (TOP/s for int8), HBM bandwidth and interconnect in GB/s (1e9 B/s).
// `dense` and `sparse` are kept apart: NVIDIA and AMD quote tensor peaks "with sparsity"
// (2× dense); the roofs use dense peaks only. FMA = 2 flops for every vendor peak.
// Peak keys by element type: bf16 (the BF16/FP16 column, also used for f16), fp8, f32
// (FP32 non-matrix where published), tf32, int8, f64 (matrix unit where there is one).
// `interconnect` is the derived one-way bandwidth per chip (the vendor's bidirectional figure
// halved), the divisor for collective_bytes (what one device sends in a ring).

export const PRESET_KIND = 'vendor specification, not a measurement';

const SPECS = 'hardware-specs.md';
const cite = (document, section) => `${document} (${SPECS} ${section})`;

const GOOGLE = (chip) => `Google Cloud TPU documentation, "${chip}" page`;
const A100 = 'NVIDIA A100 Tensor Core GPU datasheet';
const H100 = 'NVIDIA H100 Tensor Core GPU product page';
const H200 = 'NVIDIA H200 Tensor Core GPU product page';
const B200 = 'NVIDIA DGX B200 product page and the Blackwell architecture brief';
const MI300X = 'AMD Instinct MI300X data sheet';

const v = (value, source) => ({ value, source });

export const HARDWARE_PRESETS = [
  {
    id: 'tpu-v4',
    name: 'TPU v4',
    vendor: 'Google',
    dense: {
      bf16: v(275, cite(GOOGLE('TPU v4'), '§B.2, "275 teraflops (bf16 or int8)"')),
      int8: v(275, cite(GOOGLE('TPU v4'), '§B.2')),
    },
    sparse: {},
    bandwidth: v(1200, cite(GOOGLE('TPU v4'), '§B.3')),
    interconnect: v(
      270,
      cite('How to Scale Your Model (the "scaling book"), TPUs chapter', '§B.4, derived: 6 links × 45 GB/s'),
    ),
    notes: ['TPUs publish no f32 peak: f32 matmuls run as several bf16 passes.'],
  },
  {
    id: 'tpu-v5e',
    name: 'TPU v5e',
    vendor: 'Google',
    dense: {
      bf16: v(197, cite(GOOGLE('TPU v5e'), '§B.2')),
      int8: v(394, cite(GOOGLE('TPU v5e'), '§B.2; JAX tpu_info 3.94e14')),
    },
    sparse: {},
    bandwidth: v(819, cite(GOOGLE('TPU v5e'), '§B.3 (older page revision; §B.6 logs the newer "800 GiBps")')),
    interconnect: v(200, cite(GOOGLE('TPU v5e'), '§B.4, derived: 400 GB/s bidirectional per chip ÷ 2')),
    notes: ['TPUs publish no f32 peak: f32 matmuls run as several bf16 passes.'],
  },
  {
    id: 'tpu-v5p',
    name: 'TPU v5p',
    vendor: 'Google',
    dense: {
      bf16: v(459, cite(GOOGLE('TPU v5p'), '§B.2')),
      fp8: v(459, cite(GOOGLE('TPU v5p'), '§B.2 (no FP8 speedup)')),
      int8: v(918, cite('JAX tpu_info and the scaling book', '§B.2')),
    },
    sparse: {},
    bandwidth: v(2765, cite(GOOGLE('TPU v5p'), '§B.3 (= 2575 GiB/s)')),
    interconnect: v(600, cite(GOOGLE('TPU v5p'), '§B.4, derived: 1200 GB/s bidirectional per chip ÷ 2')),
    notes: ['TPUs publish no f32 peak: f32 matmuls run as several bf16 passes.'],
  },
  {
    id: 'tpu-v6e',
    name: 'TPU v6e (Trillium)',
    vendor: 'Google',
    dense: {
      bf16: v(918, cite(GOOGLE('TPU v6e'), '§B.2')),
      fp8: v(918, cite(GOOGLE('TPU v6e'), '§B.2 (no FP8 speedup)')),
      int8: v(1836, cite(GOOGLE('TPU v6e'), '§B.2')),
    },
    sparse: {},
    bandwidth: v(1638, cite(GOOGLE('TPU v6e'), '§B.3')),
    interconnect: v(400, cite(GOOGLE('TPU v6e'), '§B.4, derived: 800 GB/s bidirectional per chip ÷ 2')),
    notes: ['TPUs publish no f32 peak: f32 matmuls run as several bf16 passes.'],
  },
  {
    id: 'tpu7x',
    name: 'TPU7x (Ironwood)',
    vendor: 'Google',
    dense: { bf16: v(2307, cite(GOOGLE('TPU7x'), '§B.2')), fp8: v(4614, cite(GOOGLE('TPU7x'), '§B.2')) },
    sparse: {},
    bandwidth: v(7380, cite(GOOGLE('TPU7x'), '§B.3')),
    interconnect: v(600, cite(GOOGLE('TPU7x'), '§B.4, derived: 1200 GB/s bidirectional per chip ÷ 2')),
    notes: [
      'Per chip; a TPU7x chip is exposed as 2 devices.',
      'TPUs publish no f32 peak: f32 matmuls run as several bf16 passes.',
    ],
  },
  {
    id: 'a100-sxm-80gb',
    name: 'A100 SXM 80GB',
    vendor: 'NVIDIA',
    dense: {
      bf16: v(312, cite(A100, '§B.2')),
      tf32: v(156, cite(A100, '§B.2')),
      f32: v(19.5, cite(A100, '§B.2, FP32 non-matrix')),
      int8: v(624, cite(A100, '§B.2')),
      f64: v(19.5, cite(A100, '§B.2, FP64 tensor core')),
    },
    sparse: {
      bf16: v(624, cite(A100, '§B.2 ("312 | 624*")')),
      tf32: v(312, cite(A100, '§B.2 (sparse = 2×)')),
      int8: v(1248, cite(A100, '§B.2 (sparse = 2×)')),
    },
    bandwidth: v(2039, cite(A100, '§B.3')),
    interconnect: v(300, cite(A100, '§B.4, derived: NVLink 3, 600 GB/s bidirectional ÷ 2')),
    notes: [],
  },
  {
    id: 'h100-sxm',
    name: 'H100 SXM',
    vendor: 'NVIDIA',
    dense: {
      bf16: v(989.4, cite(H100, '§B.2 (the page lists 1979 with sparsity; dense is half)')),
      fp8: v(1979, cite(H100, '§B.2 (3958 with sparsity ÷ 2)')),
      tf32: v(494.7, cite(H100, '§B.2')),
      f32: v(67, cite(H100, '§B.2, FP32 non-matrix')),
      int8: v(1979, cite(H100, '§B.2')),
      f64: v(67, cite(H100, '§B.2, FP64 tensor core')),
    },
    sparse: {
      bf16: v(1979, cite(H100, '§B.2 (marked with an asterisk: with sparsity)')),
      fp8: v(3958, cite(H100, '§B.2')),
      tf32: v(989, cite(H100, '§B.2')),
      int8: v(3958, cite(H100, '§B.2')),
    },
    bandwidth: v(3350, cite(H100, '§B.3')),
    interconnect: v(450, cite(H100, '§B.4, derived: NVLink 4, 900 GB/s bidirectional ÷ 2')),
    notes: [],
  },
  {
    id: 'h200-sxm',
    name: 'H200 SXM',
    vendor: 'NVIDIA',
    dense: {
      bf16: v(989.4, cite(H200, '§B.2 (same compute as H100; sparse figures ÷ 2)')),
      fp8: v(1979, cite(H200, '§B.2')),
      tf32: v(494.7, cite(H200, '§B.2')),
      f32: v(67, cite(H200, '§B.2, FP32 non-matrix')),
      int8: v(1979, cite(H200, '§B.2')),
      f64: v(67, cite(H200, '§B.2, FP64 tensor core')),
    },
    sparse: { bf16: v(1979, cite(H200, '§B.2 (with sparsity)')), fp8: v(3958, cite(H200, '§B.2 (with sparsity)')) },
    bandwidth: v(4800, cite(H200, '§B.3')),
    interconnect: v(450, cite(H200, '§B.4, derived: NVLink 4, 900 GB/s bidirectional ÷ 2')),
    notes: [],
  },
  {
    id: 'b200',
    name: 'B200 (HGX/DGX, 1000 W)',
    vendor: 'NVIDIA',
    dense: {
      bf16: v(2250, cite(B200, '§B.2')),
      fp8: v(4500, cite(B200, '§B.2')),
      f32: v(80, cite(B200, '§B.2, FP32 non-matrix')),
      int8: v(4500, cite(B200, '§B.2')),
    },
    sparse: {
      bf16: v(4500, cite(B200, '§B.2 (with sparsity)')),
      fp8: v(9000, cite(B200, '§B.2 (with sparsity)')),
      int8: v(9000, cite(B200, '§B.2 (with sparsity)')),
    },
    bandwidth: v(8000, cite(B200, '§B.3 (DGX B200: 64 TB/s for 8 GPUs; some pages say 7.7 TB/s)')),
    interconnect: v(900, cite(B200, '§B.4, derived: NVLink 5, 1.8 TB/s bidirectional ÷ 2')),
    notes: ['FP64 and TF32 differ between sources (§B.2 note 2): not listed here.'],
  },
  {
    id: 'mi300x',
    name: 'AMD MI300X',
    vendor: 'AMD',
    dense: {
      bf16: v(1307.4, cite(MI300X, '§B.2; check: 304 CU × 2.1 GHz × 2048 FLOP/clk/CU')),
      fp8: v(2614.9, cite(MI300X, '§B.2')),
      tf32: v(653.7, cite(MI300X, '§B.2')),
      f32: v(163.4, cite(MI300X, '§B.2, FP32 (non-matrix column)')),
      int8: v(2614.9, cite(MI300X, '§B.2')),
      f64: v(163.4, cite(MI300X, '§B.2, FP64 matrix')),
    },
    sparse: {
      bf16: v(2614.9, cite(MI300X, '§B.2 (with sparsity)')),
      fp8: v(5229.8, cite(MI300X, '§B.2 (with sparsity)')),
      tf32: v(1307.4, cite(MI300X, '§B.2 (with sparsity)')),
      int8: v(5229.8, cite(MI300X, '§B.2 (with sparsity)')),
    },
    bandwidth: v(5300, cite(MI300X, '§B.3')),
    interconnect: v(448, cite(MI300X, '§B.4, derived: Infinity Fabric, 896 GB/s aggregate ÷ 2')),
    notes: [],
  },
];

/** The preset with this id, or undefined. */
export function presetById(id) {
  return HARDWARE_PRESETS.find((p) => p.id === id);
}
