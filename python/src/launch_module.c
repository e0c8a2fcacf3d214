/* tile_mlir.runtime._launch: the launch hot path in C (runtime/launch.py).
 *
 * Bound: a launch with the function, grid, block, dynamic shared size and
 * packed parameter array fixed. Calling it with a stream handle calls
 * libcuda's cuLaunchKernel directly and returns the driver's status as an
 * int. A Bound given its function's context launches only while that context
 * is current on the calling thread; otherwise it returns 201
 * (CUDA_ERROR_INVALID_CONTEXT) unlaunched, for the caller to switch. launch_with(stream, args) first packs the scalar arguments into their
 * parameter slots, but only values that need no conversion (an exact int in
 * the slot's range, an exact float a float slot holds); anything else returns
 * -1 unlaunched, for the Python checks to convert or reject by rule. Packing
 * and launch happen under the GIL in one call, so concurrent callers cannot
 * interleave their scalars.
 *
 * Dispatch: the whole cached call. It keys the arguments exactly as the
 * Python call path does (a marker for an exact int or float; else the tuple
 * type, data_ptr(), shape, stride(), dtype), looks the validated launch up in
 * the kernel's dict, and launches its Bound on the arrays' current stream.
 * It returns -1 for anything it does not handle (a miss, another kind of
 * array, a launch that must synchronize), and the Python path then runs.
 *
 * Relocated: a bound launch whose array addresses change per call. Its own copy
 * of the parameters holds pointer slots and tensor maps that each call
 * rewrites from its base addresses (a slot: base + offset; a map:
 * cuTensorMapReplaceAddress) before the launch, all under the GIL.
 *
 * Built against the stable ABI, so one build serves every CPython >= 3.10. */
#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x030A0000 /* CMake defines it from USE_SABI */
#endif
#include <Python.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef int (*LaunchKernelFn)(void *function, unsigned gx, unsigned gy, unsigned gz,
                              unsigned bx, unsigned by, unsigned bz, unsigned shared,
                              void *stream, void **params, void **extra);

typedef int (*CtxGetCurrentFn)(void **context);
typedef int (*ReplaceAddressFn)(void *map, void *address);

static LaunchKernelFn launch_kernel;
static CtxGetCurrentFn ctx_get_current;
static ReplaceAddressFn replace_address; /* NULL on drivers before CUDA 12.0 */
static PyObject *s_data_ptr, *s_shape, *s_stride, *s_dtype, *s_direct;
static PyObject *bound_type;

typedef struct {
  Py_ssize_t index; /* the argument's position in the call */
  void *slot;       /* where its C value goes */
  int is_float, width;
  long long low;          /* integer slots: the accepted range */
  unsigned long long high;
} ScalarPacking;

typedef struct {
  PyObject_HEAD
  void *function;
  unsigned grid[3], block[3], shared;
  void **params;
  PyObject *owner;          /* keeps the parameter storage alive */
  PyObject *current_stream; /* callable giving the default stream, or None */
  int dispatch;             /* whether Dispatch may launch it */
  void *context;            /* the context the function lives in (NULL: unchecked) */
  Py_ssize_t nscalars;
  ScalarPacking *scalars;
} Bound;

static int read_scalar_packing(PyObject *entry, ScalarPacking *out) {
  unsigned long long slot;
  int kind;
  if (!PyArg_ParseTuple(entry, "nKCiLK", &out->index, &slot, &kind, &out->width,
                        &out->low, &out->high))
    return -1;
  if ((kind != 'i' && kind != 'f') || (out->width != 4 && out->width != 8) || out->index < 0) {
    PyErr_SetString(PyExc_ValueError, "a scalar packing is (index >= 0, slot address, "
                                      "'i' or 'f', width 4 or 8, low, high)");
    return -1;
  }
  out->slot = (void *)(uintptr_t)slot;
  out->is_float = kind == 'f';
  return 0;
}

/* An unsigned 32-bit launch dimension, or -1 with OverflowError/TypeError
 * (PyArg's 'I' would wrap a larger value silently). */
static int read_u32(PyObject *value, unsigned *out) {
  unsigned long long v = PyLong_AsUnsignedLongLong(value);
  if (PyErr_Occurred())
    return -1;
  if (v > 0xFFFFFFFFull) {
    PyErr_SetString(PyExc_OverflowError, "a grid, block or shared size is at most 2**32 - 1");
    return -1;
  }
  *out = (unsigned)v;
  return 0;
}

static int bound_init(PyObject *self_obj, PyObject *args, PyObject *kwargs) {
  Bound *self = (Bound *)self_obj;
  static char *names[] = {"function", "grid", "block", "shared", "params", "owner",
                          "current_stream", "scalars", "dispatch", "context", NULL};
  unsigned long long function, params, context = 0;
  PyObject *owner = Py_None, *current = Py_None, *scalars = NULL;
  PyObject *dims[7];
  unsigned values[7];
  int dispatch = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "K(OOO)(OOO)OK|OOOpK", names,
                                   &function, &dims[0], &dims[1], &dims[2], &dims[3],
                                   &dims[4], &dims[5], &dims[6], &params, &owner, &current,
                                   &scalars, &dispatch, &context))
    return -1;
  for (int i = 0; i < 7; i++)
    if (read_u32(dims[i], &values[i]) < 0)
      return -1;
  if (current != Py_None && !PyCallable_Check(current)) {
    PyErr_SetString(PyExc_TypeError, "current_stream must be callable or None");
    return -1;
  }
  Py_ssize_t n = 0;
  PyObject *seq = NULL;
  if (scalars && scalars != Py_None) {
    seq = PySequence_Tuple(scalars);
    if (!seq)
      return -1;
    n = PyTuple_Size(seq);
  }
  ScalarPacking *packing = n ? PyMem_Calloc((size_t)n, sizeof(ScalarPacking)) : NULL;
  if (n && !packing) {
    Py_XDECREF(seq);
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    if (read_scalar_packing(PyTuple_GetItem(seq, i), &packing[i]) < 0) {
      PyMem_Free(packing);
      Py_DECREF(seq);
      return -1;
    }
  }
  Py_XDECREF(seq);
  PyMem_Free(self->scalars);
  self->scalars = packing;
  self->nscalars = n;
  for (int i = 0; i < 3; i++) {
    self->grid[i] = values[i];
    self->block[i] = values[3 + i];
  }
  self->shared = values[6];
  self->function = (void *)(uintptr_t)function;
  self->params = (void **)(uintptr_t)params;
  self->dispatch = dispatch;
  self->context = (void *)(uintptr_t)context;
  PyObject *old_owner = self->owner, *old_current = self->current_stream;
  Py_INCREF(owner);
  Py_INCREF(current);
  self->owner = owner;
  self->current_stream = current;
  Py_XDECREF(old_owner);
  Py_XDECREF(old_current);
  return 0;
}

/* CUDA_ERROR_INVALID_CONTEXT: returned unlaunched when the calling thread's
 * current context is not the function's (the Python side then launches under
 * it and restores the thread's own: driver.relaunch_on). */
#define WRONG_CONTEXT 201

/* Whether `context` (NULL: any) is current on the calling thread. */
static int context_current(void *context) {
  void *current = NULL;
  return !context || (ctx_get_current(&current) == 0 && current == context);
}

static int launch(Bound *self, void *stream) {
  if (!context_current(self->context))
    return WRONG_CONTEXT;
  return launch_kernel(self->function, self->grid[0], self->grid[1], self->grid[2],
                       self->block[0], self->block[1], self->block[2], self->shared,
                       stream, self->params, NULL);
}

/* Packs one scalar when it needs no conversion: 1 packed, 0 not (no error set). */
static int pack_scalar(const ScalarPacking *p, PyObject *x) {
  if (p->is_float) {
    if (!PyFloat_CheckExact(x))
      return 0;
    double v = PyFloat_AsDouble(x);
    if (p->width == 8) {
      *(double *)p->slot = v;
      return 1;
    }
    if (isfinite(v) && fabs(v) > FLT_MAX)
      return 0; /* overflows float32: the Python check names the rule */
    *(float *)p->slot = (float)v;
    return 1;
  }
  if (!PyLong_CheckExact(x))
    return 0;
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
  uint64_t bits;
  if (overflow == 0) {
    if (v == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return 0;
    }
    if (v < p->low || (v >= 0 && (unsigned long long)v > p->high))
      return 0;
    bits = (uint64_t)v;
  } else if (overflow > 0) {
    unsigned long long u = PyLong_AsUnsignedLongLong(x);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return 0;
    }
    if (u > p->high)
      return 0;
    bits = u;
  } else {
    return 0;
  }
  if (p->width == 4)
    *(uint32_t *)p->slot = (uint32_t)bits;
  else
    *(uint64_t *)p->slot = bits;
  return 1;
}

static int pack_scalars(Bound *self, PyObject *args) {
  Py_ssize_t nargs = PyTuple_Size(args);
  for (Py_ssize_t i = 0; i < self->nscalars; i++) {
    const ScalarPacking *p = &self->scalars[i];
    if (p->index >= nargs || !pack_scalar(p, PyTuple_GetItem(args, p->index)))
      return 0;
  }
  return 1;
}

static void *stream_of(PyObject *handle) {
  void *stream = PyLong_AsVoidPtr(handle);
  return stream;
}

/* 0, or -1 with TypeError for a Bound made without __init__. */
static int bound_ready(Bound *self) {
  if (self->owner)
    return 0;
  PyErr_SetString(PyExc_TypeError, "the Bound was not initialised");
  return -1;
}

static PyObject *bound_call(PyObject *self_obj, PyObject *args, PyObject *kwargs) {
  Bound *self = (Bound *)self_obj;
  if (bound_ready(self) < 0)
    return NULL;
  if (kwargs || PyTuple_Size(args) != 1) {
    PyErr_SetString(PyExc_TypeError, "a bound launch takes one stream handle");
    return NULL;
  }
  void *stream = stream_of(PyTuple_GetItem(args, 0));
  if (stream == NULL && PyErr_Occurred())
    return NULL;
  return PyLong_FromLong(launch(self, stream));
}

static PyObject *bound_launch_with(PyObject *self_obj, PyObject *args) {
  Bound *self = (Bound *)self_obj;
  if (bound_ready(self) < 0)
    return NULL;
  PyObject *handle, *call_args;
  if (!PyArg_ParseTuple(args, "OO", &handle, &call_args))
    return NULL;
  void *stream = stream_of(handle);
  if (stream == NULL && PyErr_Occurred())
    return NULL;
  PyObject *tuple = PySequence_Tuple(call_args);
  if (!tuple)
    return NULL;
  int packed = pack_scalars(self, tuple);
  Py_DECREF(tuple);
  if (!packed)
    return PyLong_FromLong(-1);
  return PyLong_FromLong(launch(self, stream));
}

static int bound_traverse(PyObject *self_obj, visitproc visit, void *arg) {
  Bound *self = (Bound *)self_obj;
  Py_VISIT(self->owner);
  Py_VISIT(self->current_stream);
  Py_VISIT((PyObject *)Py_TYPE(self_obj));
  return 0;
}

static int bound_clear(PyObject *self_obj) {
  Bound *self = (Bound *)self_obj;
  Py_CLEAR(self->owner);
  Py_CLEAR(self->current_stream);
  return 0;
}

static void bound_dealloc(PyObject *self_obj) {
  Bound *self = (Bound *)self_obj;
  PyTypeObject *type = Py_TYPE(self_obj);
  PyObject_GC_UnTrack(self_obj);
  bound_clear(self_obj);
  PyMem_Free(self->scalars);
  freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
  tp_free(self_obj);
  Py_DECREF(type);
}

static PyMethodDef bound_methods[] = {
    {"launch_with", bound_launch_with, METH_VARARGS,
     "launch_with(stream, args): packs the scalars of args and launches; the "
     "status, or -1 (nothing launched) when a scalar needs the Python checks."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot bound_slots[] = {
    {Py_tp_init, bound_init},
    {Py_tp_call, bound_call},
    {Py_tp_dealloc, bound_dealloc},
    {Py_tp_traverse, bound_traverse},
    {Py_tp_clear, bound_clear},
    {Py_tp_methods, bound_methods},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_doc, "Bound(function, grid, block, shared, params, owner=None, "
                "current_stream=None, scalars=(), dispatch=True, context=0): call with a stream "
                "handle to launch; returns the CUresult as an int."},
    {0, NULL},
};

static PyType_Spec bound_spec = {"tile_mlir.runtime._launch.Bound", sizeof(Bound), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, bound_slots};

/* ---- Relocated --------------------------------------------------------- */

typedef struct {
  char kind;        /* 'p': a 64-bit pointer slot, 'm': a tensor map */
  void *where;      /* the slot or the map in the Relocated's own parameters */
  Py_ssize_t base;  /* which base address of the call */
  long long offset; /* bytes from that base */
} Patch;

typedef struct {
  PyObject_HEAD
  void *function;
  unsigned grid[3], block[3], shared;
  void **params;
  void *context;
  PyObject *owner; /* keeps the parameter copies alive */
  Py_ssize_t npatches, nbases;
  Patch *patches;
} Relocated;

static int relocated_init(PyObject *self_obj, PyObject *args, PyObject *kwargs) {
  Relocated *self = (Relocated *)self_obj;
  static char *names[] = {"function", "grid", "block", "shared", "params", "owner",
                          "patches", "context", NULL};
  unsigned long long function, params, context = 0;
  PyObject *owner, *patches;
  PyObject *dims[7];
  unsigned values[7];
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "K(OOO)(OOO)OKOO|K", names, &function,
                                   &dims[0], &dims[1], &dims[2], &dims[3], &dims[4],
                                   &dims[5], &dims[6], &params, &owner, &patches, &context))
    return -1;
  for (int i = 0; i < 7; i++)
    if (read_u32(dims[i], &values[i]) < 0)
      return -1;
  PyObject *seq = PySequence_Tuple(patches);
  if (!seq)
    return -1;
  Py_ssize_t n = PyTuple_Size(seq), nbases = 0;
  Patch *list = n ? PyMem_Calloc((size_t)n, sizeof(Patch)) : NULL;
  if (n && !list) {
    Py_DECREF(seq);
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    int kind;
    unsigned long long where;
    Patch *p = &list[i];
    if (!PyArg_ParseTuple(PyTuple_GetItem(seq, i), "CKnL", &kind, &where, &p->base,
                          &p->offset)) {
      PyMem_Free(list);
      Py_DECREF(seq);
      return -1;
    }
    if ((kind != 'p' && kind != 'm') || p->base < 0 || p->base >= 8 || !where ||
        (kind == 'm' && !replace_address)) {
      PyErr_SetString(PyExc_ValueError, "a patch is ('p' or 'm', a non-null address, "
                                        "base 0..7, offset); 'm' needs a CUDA 12 driver");
      PyMem_Free(list);
      Py_DECREF(seq);
      return -1;
    }
    p->kind = (char)kind;
    p->where = (void *)(uintptr_t)where;
    if (p->base + 1 > nbases)
      nbases = p->base + 1;
  }
  Py_DECREF(seq);
  PyMem_Free(self->patches);
  self->patches = list;
  self->npatches = n;
  self->nbases = nbases;
  for (int i = 0; i < 3; i++) {
    self->grid[i] = values[i];
    self->block[i] = values[3 + i];
  }
  self->shared = values[6];
  self->function = (void *)(uintptr_t)function;
  self->params = (void **)(uintptr_t)params;
  self->context = (void *)(uintptr_t)context;
  PyObject *old = self->owner;
  Py_INCREF(owner);
  self->owner = owner;
  Py_XDECREF(old);
  return 0;
}

/* relocated(stream, base0, base1, ...): the status of the launch (201 with
 * nothing rewritten or launched when another context is current). */
static PyObject *relocated_call(PyObject *self_obj, PyObject *args, PyObject *kwargs) {
  Relocated *self = (Relocated *)self_obj;
  if (!self->owner) {
    PyErr_SetString(PyExc_TypeError, "the Relocated was not initialised");
    return NULL;
  }
  Py_ssize_t nargs = PyTuple_Size(args);
  if (kwargs || nargs < 1 + self->nbases || nargs > 9) {
    PyErr_Format(PyExc_TypeError, "a relocated launch takes a stream handle and %zd to 8 "
                                  "base addresses", self->nbases);
    return NULL;
  }
  void *stream = stream_of(PyTuple_GetItem(args, 0));
  if (stream == NULL && PyErr_Occurred())
    return NULL;
  unsigned long long base[8];
  for (Py_ssize_t i = 0; i < self->nbases; i++) {
    base[i] = PyLong_AsUnsignedLongLong(PyTuple_GetItem(args, i + 1));
    if (PyErr_Occurred())
      return NULL;
  }
  int status = context_current(self->context) ? 0 : WRONG_CONTEXT;
  for (Py_ssize_t i = 0; status == 0 && i < self->npatches; i++) {
    const Patch *p = &self->patches[i];
    uint64_t address = base[p->base] + (uint64_t)p->offset;
    if (p->kind == 'p')
      *(uint64_t *)p->where = address;
    else
      status = replace_address(p->where, (void *)(uintptr_t)address);
  }
  if (status == 0)
    status = launch_kernel(self->function, self->grid[0], self->grid[1], self->grid[2],
                           self->block[0], self->block[1], self->block[2], self->shared,
                           stream, self->params, NULL);
  return PyLong_FromLong(status);
}

static int relocated_traverse(PyObject *self_obj, visitproc visit, void *arg) {
  Py_VISIT(((Relocated *)self_obj)->owner);
  Py_VISIT((PyObject *)Py_TYPE(self_obj));
  return 0;
}

static int relocated_clear(PyObject *self_obj) {
  Py_CLEAR(((Relocated *)self_obj)->owner);
  return 0;
}

static void relocated_dealloc(PyObject *self_obj) {
  Relocated *self = (Relocated *)self_obj;
  PyTypeObject *type = Py_TYPE(self_obj);
  PyObject_GC_UnTrack(self_obj);
  relocated_clear(self_obj);
  PyMem_Free(self->patches);
  freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
  tp_free(self_obj);
  Py_DECREF(type);
}

static PyType_Slot relocated_slots[] = {
    {Py_tp_init, relocated_init},
    {Py_tp_call, relocated_call},
    {Py_tp_dealloc, relocated_dealloc},
    {Py_tp_traverse, relocated_traverse},
    {Py_tp_clear, relocated_clear},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_doc, "Relocated(function, grid, block, shared, params, owner, patches, "
                "context=0): call with a stream handle and the base addresses; each "
                "patch (kind, address, base, offset) is rewritten, then the kernel "
                "launched; returns the CUresult as an int."},
    {0, NULL},
};

static PyType_Spec relocated_spec = {"tile_mlir.runtime._launch.Relocated", sizeof(Relocated),
                                     0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
                                     relocated_slots};

/* ---- Dispatch ---------------------------------------------------------- */

typedef struct {
  PyObject_HEAD
  PyObject *launches; /* dict: call key -> BoundLaunch (with .direct) */
  PyObject *marker;   /* the key entry of a plain number */
  /* The last hit: a call whose arguments compare equal to its key entries
   * is that launch again, without building and hashing a key. A launch
   * stays valid for its key after the dict drops it. */
  PyObject *last_key, *last_found;
  /* data_ptr and stride looked up once on the type of the last array
   * argument, called unbound (no bound method made per call). */
  PyObject *array_type, *m_data_ptr, *m_stride;
} Dispatch;

static int dispatch_init(PyObject *self_obj, PyObject *args, PyObject *kwargs) {
  Dispatch *self = (Dispatch *)self_obj;
  PyObject *launches, *marker;
  if (kwargs && PyDict_Size(kwargs)) {
    PyErr_SetString(PyExc_TypeError, "Dispatch takes positional arguments only");
    return -1;
  }
  if (!PyArg_ParseTuple(args, "O!O", &PyDict_Type, &launches, &marker))
    return -1;
  PyObject *old[4] = {self->launches, self->marker, self->last_key, self->last_found};
  Py_INCREF(launches);
  Py_INCREF(marker);
  self->launches = launches;
  self->marker = marker;
  self->last_key = self->last_found = NULL;
  for (int i = 0; i < 4; i++)
    Py_XDECREF(old[i]);
  return 0;
}

static int is_plain_number(PyObject *a) { return PyLong_CheckExact(a) || PyFloat_CheckExact(a); }

/* After a failed accessor or lookup: 1 when the error only means "not
 * handled here" (an Exception, cleared), 0 when it must propagate
 * (KeyboardInterrupt, SystemExit, MemoryError: left set). */
static int soft_error(void) {
  if (PyErr_ExceptionMatches(PyExc_MemoryError) ||
      !PyErr_ExceptionMatches(PyExc_Exception))
    return 0;
  PyErr_Clear();
  return 1;
}

/* a.name() through the method found once on a's type (NULL with an error
 * set on failure). The new cache entries are all stored before the old ones
 * are released, and the method is held while it runs. */
static PyObject *call_method(Dispatch *self, PyObject *a, PyObject *name) {
  PyObject *type = (PyObject *)Py_TYPE(a);
  if (type != self->array_type) {
    PyObject *data_ptr = PyObject_GetAttr(type, s_data_ptr);
    PyObject *stride = data_ptr ? PyObject_GetAttr(type, s_stride) : NULL;
    if (!stride) {
      Py_XDECREF(data_ptr);
      return NULL;
    }
    PyObject *old[3] = {self->array_type, self->m_data_ptr, self->m_stride};
    Py_INCREF(type);
    self->array_type = type;
    self->m_data_ptr = data_ptr;
    self->m_stride = stride;
    for (int i = 0; i < 3; i++)
      Py_XDECREF(old[i]);
  }
  PyObject *method = name == s_data_ptr ? self->m_data_ptr : self->m_stride;
  Py_INCREF(method);
  PyObject *result = PyObject_CallFunctionObjArgs(method, a, NULL);
  Py_DECREF(method);
  return result;
}

/* The key entry of one argument: a new reference; NULL with no error set
 * when it has none; NULL with an error set when that must propagate. */
static PyObject *argument_key(Dispatch *self, PyObject *a) {
  if (is_plain_number(a)) {
    Py_INCREF(self->marker);
    return self->marker;
  }
  PyObject *ptr = NULL, *shape = NULL, *stride = NULL, *dtype = NULL, *entry = NULL;
  ptr = call_method(self, a, s_data_ptr);
  if (ptr)
    shape = PyObject_GetAttr(a, s_shape);
  if (shape)
    stride = call_method(self, a, s_stride);
  if (stride)
    dtype = PyObject_GetAttr(a, s_dtype);
  if (dtype)
    entry = PyTuple_Pack(5, (PyObject *)Py_TYPE(a), ptr, shape, stride, dtype);
  Py_XDECREF(ptr);
  Py_XDECREF(shape);
  Py_XDECREF(stride);
  Py_XDECREF(dtype);
  if (!entry)
    soft_error();
  return entry;
}

/* 1 when `value` (a new reference, or NULL after an error) equals `want`, 0
 * when not, -1 when an error must propagate; consumes value. */
static int same(PyObject *value, PyObject *want) {
  if (!value)
    return soft_error() ? 0 : -1;
  int eq = value == want ? 1 : PyObject_RichCompareBool(value, want, Py_EQ);
  Py_DECREF(value);
  if (eq < 0)
    return soft_error() ? 0 : -1;
  return eq;
}

/* Whether the arguments match `key`, entry by entry: 1, 0, or -1 (an error
 * to propagate). */
static int matches(Dispatch *self, PyObject *key, PyObject *call_args) {
  Py_ssize_t n = PyTuple_Size(call_args);
  if (PyTuple_Size(key) != n)
    return 0;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *a = PyTuple_GetItem(call_args, i), *entry = PyTuple_GetItem(key, i);
    if (entry == self->marker) {
      if (!is_plain_number(a))
        return 0;
      continue;
    }
    if (is_plain_number(a) || (PyObject *)Py_TYPE(a) != PyTuple_GetItem(entry, 0))
      return 0;
    int eq = same(call_method(self, a, s_data_ptr), PyTuple_GetItem(entry, 1));
    if (eq == 1)
      eq = same(PyObject_GetAttr(a, s_shape), PyTuple_GetItem(entry, 2));
    if (eq == 1)
      eq = same(call_method(self, a, s_stride), PyTuple_GetItem(entry, 3));
    if (eq == 1)
      eq = same(PyObject_GetAttr(a, s_dtype), PyTuple_GetItem(entry, 4));
    if (eq != 1)
      return eq;
  }
  return 1;
}

/* The cached launch for these arguments: a new reference; NULL with no
 * error set for a miss; NULL with an error set when that must propagate. */
static PyObject *find_launch(Dispatch *self, PyObject *call_args) {
  /* The last hit, held here: the accessors may run Python code, and another
   * thread may replace the last hit meanwhile. A match returns the launch
   * held with the key it matched. */
  PyObject *last_key = self->last_key, *last_found = self->last_found;
  if (last_key && last_found) {
    Py_INCREF(last_key);
    Py_INCREF(last_found);
    int match = matches(self, last_key, call_args);
    Py_DECREF(last_key);
    if (match == 1)
      return last_found;
    Py_DECREF(last_found);
    if (match < 0)
      return NULL;
  }
  Py_ssize_t n = PyTuple_Size(call_args);
  PyObject *key = PyTuple_New(n);
  if (!key)
    return NULL;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *entry = argument_key(self, PyTuple_GetItem(call_args, i));
    if (!entry) {
      Py_DECREF(key);
      return NULL;
    }
    PyTuple_SetItem(key, i, entry); /* steals */
  }
  PyObject *full = PyTuple_Pack(4, key, Py_None, Py_None, Py_None);
  PyObject *found = full ? PyDict_GetItemWithError(self->launches, full) : NULL;
  Py_XDECREF(full);
  if (!found) {
    if (PyErr_Occurred())
      soft_error(); /* an unhashable entry: the Python path keys it */
    Py_DECREF(key);
    return NULL;
  }
  Py_INCREF(found); /* for last_found */
  Py_INCREF(found); /* for the caller */
  PyObject *old_key = self->last_key, *old_found = self->last_found;
  self->last_key = key;
  self->last_found = found;
  Py_XDECREF(old_key);
  Py_XDECREF(old_found);
  return found;
}

static PyObject *dispatch_call(PyObject *self_obj, PyObject *args, PyObject *kwargs) {
  Dispatch *self = (Dispatch *)self_obj;
  PyObject *call_args;
  if (kwargs || !PyArg_ParseTuple(args, "O!", &PyTuple_Type, &call_args)) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_TypeError, "a dispatch takes the argument tuple");
    return NULL;
  }
  if (!self->launches || !self->marker) {
    PyErr_SetString(PyExc_TypeError, "the Dispatch was not initialised");
    return NULL;
  }
  PyObject *found = find_launch(self, call_args);
  if (!found)
    return PyErr_Occurred() ? NULL : PyLong_FromLong(-1);
  PyObject *direct = PyObject_GetAttr(found, s_direct);
  Py_DECREF(found);
  if (!direct)
    return soft_error() ? PyLong_FromLong(-1) : NULL;
  Bound *bound = (Bound *)direct;
  if (!PyObject_TypeCheck(direct, (PyTypeObject *)bound_type) || !bound->dispatch ||
      !bound->owner) {
    Py_DECREF(direct);
    return PyLong_FromLong(-1);
  }
  void *stream = NULL;
  if (bound->current_stream && bound->current_stream != Py_None) {
    PyObject *handle = PyObject_CallObject(bound->current_stream, NULL);
    if (!handle) {
      Py_DECREF(direct);
      return NULL;
    }
    stream = stream_of(handle);
    Py_DECREF(handle);
    if (stream == NULL && PyErr_Occurred()) {
      Py_DECREF(direct);
      return NULL;
    }
  }
  PyObject *result;
  if (bound->nscalars && !pack_scalars(bound, call_args))
    result = PyLong_FromLong(-1);
  else
    result = PyLong_FromLong(launch(bound, stream));
  Py_DECREF(direct);
  return result;
}

static int dispatch_traverse(PyObject *self_obj, visitproc visit, void *arg) {
  Dispatch *self = (Dispatch *)self_obj;
  Py_VISIT(self->launches);
  Py_VISIT(self->marker);
  Py_VISIT(self->last_key);
  Py_VISIT(self->last_found);
  Py_VISIT(self->array_type);
  Py_VISIT(self->m_data_ptr);
  Py_VISIT(self->m_stride);
  Py_VISIT((PyObject *)Py_TYPE(self_obj));
  return 0;
}

static int dispatch_clear(PyObject *self_obj) {
  Dispatch *self = (Dispatch *)self_obj;
  Py_CLEAR(self->launches);
  Py_CLEAR(self->marker);
  Py_CLEAR(self->last_key);
  Py_CLEAR(self->last_found);
  Py_CLEAR(self->array_type);
  Py_CLEAR(self->m_data_ptr);
  Py_CLEAR(self->m_stride);
  return 0;
}

static void dispatch_dealloc(PyObject *self_obj) {
  PyTypeObject *type = Py_TYPE(self_obj);
  PyObject_GC_UnTrack(self_obj);
  dispatch_clear(self_obj);
  freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
  tp_free(self_obj);
  Py_DECREF(type);
}

static PyType_Slot dispatch_slots[] = {
    {Py_tp_init, dispatch_init},
    {Py_tp_call, dispatch_call},
    {Py_tp_dealloc, dispatch_dealloc},
    {Py_tp_traverse, dispatch_traverse},
    {Py_tp_clear, dispatch_clear},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_doc, "Dispatch(launches, number_marker): call with the argument tuple; "
                "the launch status, or -1 when the Python call path must run."},
    {0, NULL},
};

static PyType_Spec dispatch_spec = {"tile_mlir.runtime._launch.Dispatch", sizeof(Dispatch),
                                    0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
                                    dispatch_slots};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_launch",
    "cuLaunchKernel with everything but the stream bound, and the cached call "
    "(see runtime/launch.py).",
    -1, NULL,
};

static int add_type(PyObject *module, PyType_Spec *spec, PyObject **out) {
  PyObject *type = PyType_FromSpec(spec);
  if (!type)
    return -1;
  Py_INCREF(type);
  if (PyModule_AddObject(module, strrchr(spec->name, '.') + 1, type) < 0) {
    Py_DECREF(type);
    Py_DECREF(type);
    return -1;
  }
  if (out)
    *out = type; /* the module keeps one reference, this another */
  else
    Py_DECREF(type);
  return 0;
}

PyMODINIT_FUNC PyInit__launch(void) {
  void *libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (libcuda) {
    launch_kernel = (LaunchKernelFn)dlsym(libcuda, "cuLaunchKernel");
    ctx_get_current = (CtxGetCurrentFn)dlsym(libcuda, "cuCtxGetCurrent");
    replace_address = (ReplaceAddressFn)dlsym(libcuda, "cuTensorMapReplaceAddress");
  }
  if (!launch_kernel || !ctx_get_current) {
    PyErr_SetString(PyExc_ImportError,
                    "libcuda.so.1 with cuLaunchKernel and cuCtxGetCurrent is not loadable");
    return NULL;
  }
  s_data_ptr = PyUnicode_InternFromString("data_ptr");
  s_shape = PyUnicode_InternFromString("shape");
  s_stride = PyUnicode_InternFromString("stride");
  s_dtype = PyUnicode_InternFromString("dtype");
  s_direct = PyUnicode_InternFromString("direct");
  if (!s_data_ptr || !s_shape || !s_stride || !s_dtype || !s_direct)
    return NULL;
  PyObject *module = PyModule_Create(&module_def);
  if (!module)
    return NULL;
  if (add_type(module, &bound_spec, &bound_type) < 0 ||
      add_type(module, &dispatch_spec, NULL) < 0 ||
      add_type(module, &relocated_spec, NULL) < 0) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
