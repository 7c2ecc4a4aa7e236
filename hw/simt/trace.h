#include "trace/trace-hw_simt.h"
