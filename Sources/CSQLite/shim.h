#ifndef PHOTOMETA_CSQLITE_SHIM_H
#define PHOTOMETA_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
