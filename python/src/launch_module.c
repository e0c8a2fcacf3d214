/* tile_mlir.runtime._launch: the launch hot path in C (runtime/launch.py).
 *
 * Bound: a launch with the function, grid, block, dynamic shared size and
 * packed parameter array fixed. Calling it with a stream handle calls
 * libcuda's cuLaunchKernel directly and returns the driver's status as an
 * int. launch_with(stream, args) first packs the scalar arguments into their
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

static LaunchKernelFn launch_kernel;
/* Py_XSETREF is not in the limited API. */
#define Py_XSETREF_COMPAT(dst, src)                                                      \
  do {                                                                                   \
    PyObject *old_ = (dst);                                                              \
    (dst) = (src);                                                                       \
    Py_XDECREF(old_);                                                                    \
  } while (0)

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
  Py_ssize_t nscalars;
  ScalarPacking *scalars;
} Bound;

static int read_scalar_packing(PyObject *entry, ScalarPacking *out) {
  unsigned long long slot;
  int kind;
  if (!PyArg_ParseTuple(entry, "nKCiLK", &out->index, &slot, &kind, &out->width,
                        &out->low, &out->high))
    return -1;
  if ((kind != 'i' && kind != 'f') || (out->width != 4 && out->width != 8)) {
    PyErr_SetString(PyExc_ValueError, "a scalar packing is (index, slot address, "
                                      "'i' or 'f', width 4 or 8, low, high)");
    return -1;
  }
  out->slot = (void *)(uintptr_t)slot;
  out->is_float = kind == 'f';
  return 0;
}

static int bound_init(PyObject *self_obj, PyObject *args, PyObject *kwargs) {
  Bound *self = (Bound *)self_obj;
  static char *names[] = {"function", "grid", "block", "shared", "params", "owner",
                          "current_stream", "scalars", "dispatch", NULL};
  unsigned long long function, params;
  PyObject *owner = Py_None, *current = Py_None, *scalars = NULL;
  int dispatch = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "K(III)(III)IK|OOOp", names, &function,
                                   &self->grid[0], &self->grid[1], &self->grid[2],
                                   &self->block[0], &self->block[1], &self->block[2],
                                   &self->shared, &params, &owner, &current, &scalars,
                                   &dispatch))
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
  self->function = (void *)(uintptr_t)function;
  self->params = (void **)(uintptr_t)params;
  self->dispatch = dispatch;
  PyObject *old_owner = self->owner, *old_current = self->current_stream;
  Py_INCREF(owner);
  Py_INCREF(current);
  self->owner = owner;
  self->current_stream = current;
  Py_XDECREF(old_owner);
  Py_XDECREF(old_current);
  return 0;
}

static int launch(Bound *self, void *stream) {
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

static PyObject *bound_call(PyObject *self_obj, PyObject *args, PyObject *kwargs) {
  Bound *self = (Bound *)self_obj;
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

static void bound_dealloc(PyObject *self_obj) {
  Bound *self = (Bound *)self_obj;
  PyTypeObject *type = Py_TYPE(self_obj);
  Py_CLEAR(self->owner);
  Py_CLEAR(self->current_stream);
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
    {Py_tp_methods, bound_methods},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_doc, "Bound(function, grid, block, shared, params, owner=None, "
                "current_stream=None, scalars=(), dispatch=True): call with a stream "
                "handle to launch; returns the CUresult as an int."},
    {0, NULL},
};

static PyType_Spec bound_spec = {"tile_mlir.runtime._launch.Bound", sizeof(Bound), 0,
                                 Py_TPFLAGS_DEFAULT, bound_slots};

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
  PyObject *old_launches = self->launches, *old_marker = self->marker;
  Py_INCREF(launches);
  Py_INCREF(marker);
  self->launches = launches;
  self->marker = marker;
  Py_XDECREF(old_launches);
  Py_XDECREF(old_marker);
  Py_CLEAR(self->last_key);
  Py_CLEAR(self->last_found);
  return 0;
}

static int is_plain_number(PyObject *a) { return PyLong_CheckExact(a) || PyFloat_CheckExact(a); }

/* a.name() through the method found once on a's type. */
static PyObject *call_method(Dispatch *self, PyObject *a, PyObject *name, PyObject **slot) {
  if ((PyObject *)Py_TYPE(a) != self->array_type) {
    PyObject *data_ptr = PyObject_GetAttr((PyObject *)Py_TYPE(a), s_data_ptr);
    PyObject *stride = data_ptr ? PyObject_GetAttr((PyObject *)Py_TYPE(a), s_stride) : NULL;
    if (!stride) {
      Py_XDECREF(data_ptr);
      return NULL;
    }
    Py_INCREF((PyObject *)Py_TYPE(a));
    Py_XSETREF_COMPAT(self->array_type, (PyObject *)Py_TYPE(a));
    Py_XSETREF_COMPAT(self->m_data_ptr, data_ptr);
    Py_XSETREF_COMPAT(self->m_stride, stride);
  }
  return PyObject_CallFunctionObjArgs(*slot, a, NULL);
}

/* The key entry of one argument, or NULL (no error set) when it has none. */
static PyObject *argument_key(Dispatch *self, PyObject *a) {
  if (is_plain_number(a)) {
    Py_INCREF(self->marker);
    return self->marker;
  }
  PyObject *ptr = NULL, *shape = NULL, *stride = NULL, *dtype = NULL, *entry = NULL;
  ptr = call_method(self, a, s_data_ptr, &self->m_data_ptr);
  if (ptr)
    shape = PyObject_GetAttr(a, s_shape);
  if (shape)
    stride = call_method(self, a, s_stride, &self->m_stride);
  if (stride)
    dtype = PyObject_GetAttr(a, s_dtype);
  if (dtype)
    entry = PyTuple_Pack(5, (PyObject *)Py_TYPE(a), ptr, shape, stride, dtype);
  Py_XDECREF(ptr);
  Py_XDECREF(shape);
  Py_XDECREF(stride);
  Py_XDECREF(dtype);
  if (!entry)
    PyErr_Clear();
  return entry;
}

/* 1 when `value` (a new reference, or NULL) equals `want`; consumes value. */
static int same(PyObject *value, PyObject *want) {
  if (!value)
    return 0;
  int eq = value == want ? 1 : PyObject_RichCompareBool(value, want, Py_EQ);
  Py_DECREF(value);
  return eq == 1;
}

/* Whether the arguments match the last hit's key, entry by entry. */
static int matches_last_key(Dispatch *self, PyObject *key, PyObject *call_args);

static int matches_last(Dispatch *self, PyObject *call_args) {
  /* Held here: the accessors may run Python code, and another thread may
   * replace the last hit meanwhile. */
  PyObject *key = self->last_key;
  if (!key)
    return 0;
  Py_INCREF(key);
  int match = matches_last_key(self, key, call_args);
  Py_DECREF(key);
  return match;
}

static int matches_last_key(Dispatch *self, PyObject *key, PyObject *call_args) {
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
    if (is_plain_number(a) || (PyObject *)Py_TYPE(a) != PyTuple_GetItem(entry, 0) ||
        !same(call_method(self, a, s_data_ptr, &self->m_data_ptr), PyTuple_GetItem(entry, 1)) ||
        !same(PyObject_GetAttr(a, s_shape), PyTuple_GetItem(entry, 2)) ||
        !same(call_method(self, a, s_stride, &self->m_stride), PyTuple_GetItem(entry, 3)) ||
        !same(PyObject_GetAttr(a, s_dtype), PyTuple_GetItem(entry, 4))) {
      PyErr_Clear();
      return 0;
    }
  }
  return 1;
}

/* The cached launch for these arguments (a new reference), or NULL (no
 * error set). */
static PyObject *find_launch(Dispatch *self, PyObject *call_args) {
  if (matches_last(self, call_args) && self->last_found) {
    Py_INCREF(self->last_found);
    return self->last_found;
  }
  Py_ssize_t n = PyTuple_Size(call_args);
  PyObject *key = PyTuple_New(n);
  if (!key) {
    PyErr_Clear();
    return NULL;
  }
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
    PyErr_Clear(); /* a miss, or an unhashable entry the Python path keys */
    Py_DECREF(key);
    return NULL;
  }
  Py_INCREF(found); /* for last_found */
  Py_INCREF(found); /* for the caller */
  Py_XSETREF_COMPAT(self->last_key, key);
  Py_XSETREF_COMPAT(self->last_found, found);
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
  PyObject *found = find_launch(self, call_args);
  if (!found)
    return PyLong_FromLong(-1);
  PyObject *direct = PyObject_GetAttr(found, s_direct);
  Py_DECREF(found);
  if (!direct) {
    PyErr_Clear();
    return PyLong_FromLong(-1);
  }
  if (!PyObject_TypeCheck(direct, (PyTypeObject *)bound_type) || !((Bound *)direct)->dispatch) {
    Py_DECREF(direct);
    return PyLong_FromLong(-1);
  }
  Bound *bound = (Bound *)direct;
  void *stream = NULL;
  if (bound->current_stream != Py_None) {
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

static void dispatch_dealloc(PyObject *self_obj) {
  Dispatch *self = (Dispatch *)self_obj;
  PyTypeObject *type = Py_TYPE(self_obj);
  Py_CLEAR(self->launches);
  Py_CLEAR(self->marker);
  Py_CLEAR(self->last_key);
  Py_CLEAR(self->last_found);
  Py_CLEAR(self->array_type);
  Py_CLEAR(self->m_data_ptr);
  Py_CLEAR(self->m_stride);
  freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
  tp_free(self_obj);
  Py_DECREF(type);
}

static PyType_Slot dispatch_slots[] = {
    {Py_tp_init, dispatch_init},
    {Py_tp_call, dispatch_call},
    {Py_tp_dealloc, dispatch_dealloc},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_doc, "Dispatch(launches, number_marker): call with the argument tuple; "
                "the launch status, or -1 when the Python call path must run."},
    {0, NULL},
};

static PyType_Spec dispatch_spec = {"tile_mlir.runtime._launch.Dispatch", sizeof(Dispatch),
                                    0, Py_TPFLAGS_DEFAULT, dispatch_slots};

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
  if (libcuda)
    launch_kernel = (LaunchKernelFn)dlsym(libcuda, "cuLaunchKernel");
  if (!launch_kernel) {
    PyErr_SetString(PyExc_ImportError, "libcuda.so.1 with cuLaunchKernel is not loadable");
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
      add_type(module, &dispatch_spec, NULL) < 0) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
